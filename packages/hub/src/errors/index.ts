export { ApiError, invalidRequest, type ApiErrorBody } from './api-error.js'
export { ERROR_CODES, type ErrorCode } from './codes.js'
export { errorResponse, renderError, unavailable } from './render.js'
