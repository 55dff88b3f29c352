import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'

// `.openapi()` names and describes a schema for /v1/openapi.json. This is the extension
// `@hono/zod-openapi` applies too, without its server: the CLI loads these schemas.
extendZodWithOpenApi(z)

export { z }
