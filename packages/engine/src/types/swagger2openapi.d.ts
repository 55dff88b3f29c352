declare module 'swagger2openapi' {
  type ConvertOptions = {
    patch?: boolean
    warnOnly?: boolean
    resolve?: boolean
    [key: string]: unknown
  }
  const swagger2openapi: {
    convertObj(
      document: object,
      options: ConvertOptions,
    ): Promise<{ openapi: Record<string, unknown> }>
  }
  export default swagger2openapi
}
