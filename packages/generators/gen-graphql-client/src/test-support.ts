import { fileURLToPath } from 'node:url'

/** GitHub's public GraphQL schema, as @octokit/graphql-schema publishes it. */
export const GITHUB_GRAPHQL = fileURLToPath(
  new URL('schema.graphql', import.meta.resolve('@octokit/graphql-schema')),
)
