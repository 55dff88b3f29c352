import {
  resolveRef,
  type ApiModel,
  type ComponentRef,
  type Parameter,
  type RequestBody,
  type Response,
} from '@svc/engine'

/** An operation's parameter, request body or response, following a ref to its component. */
export function resolveParameter(
  model: ApiModel,
  parameter: Parameter | ComponentRef<'parameters'>,
): Parameter {
  return parameter.kind === 'ref' ? resolveRef(model, parameter.$ref, 'parameters') : parameter
}

export function resolveRequestBody(
  model: ApiModel,
  body: RequestBody | ComponentRef<'requestBodies'>,
): RequestBody {
  return body.kind === 'ref' ? resolveRef(model, body.$ref, 'requestBodies') : body
}

export function resolveResponse(
  model: ApiModel,
  response: Response | ComponentRef<'responses'>,
): Response {
  return response.kind === 'ref' ? resolveRef(model, response.$ref, 'responses') : response
}
