/** What the hub's personal access tokens look like (packages/hub/src/auth/secrets.ts). */
export const PAT_PREFIX = 'svc_pat_'
const PAT_SECRET_LENGTH = 43
const PAT_SECRET_CHARACTERS = /^[A-Za-z0-9_-]*$/

/**
 * What is wrong with a value that starts like a personal access token but cannot be one, in
 * words that never repeat the value; undefined when it is well formed or not meant as a PAT
 * (the hub's answer then says what it is).
 */
export function malformedPat(token: string): string | undefined {
  if (!token.startsWith(PAT_PREFIX)) return undefined
  const secret = token.slice(PAT_PREFIX.length)
  const problems: string[] = []
  if (secret.length !== PAT_SECRET_LENGTH)
    problems.push(
      `has ${secret.length} character${secret.length === 1 ? '' : 's'} after ${PAT_PREFIX} where a personal access token has ${PAT_SECRET_LENGTH}`,
    )
  const wrong = [...new Set([...secret].filter((c) => !PAT_SECRET_CHARACTERS.test(c)))]
  if (wrong.length > 0)
    problems.push(
      `holds ${wrong.map((c) => (/\s/.test(c) ? 'white space' : `'${c}'`)).join(', ')}, which a personal access token never does (only A-Z a-z 0-9 _ -)`,
    )
  if (problems.length === 0) return undefined
  return `the token starts with ${PAT_PREFIX} but ${problems.join(' and ')}: was it copied whole?`
}
