/** A parsed form body, as `c.req.parseBody()` answers it. */
export type FormBody = Record<string, string | File | (string | File)[]>

/** The text of field `name` ('' when missing, a file or repeated). */
export function formText(form: FormBody, name: string): string {
  const value = form[name]
  return typeof value === 'string' ? value : ''
}

/** Every text value of a repeated field (checkboxes). */
export function formTexts(form: FormBody, name: string): string[] {
  const value = form[name]
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value]
  return values.filter((v): v is string => typeof v === 'string')
}

/** The file of field `name`, when one was chosen. */
export function formFile(form: FormBody, name: string): File | undefined {
  const value = form[name]
  return value instanceof File && value.size > 0 ? value : undefined
}
