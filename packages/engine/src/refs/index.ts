export { RefError, type RefErrorCode } from './ref-error.js'
export { resolveRef, splitComponentRef, MAX_REF_LOOKUPS, BUCKET_TYPE } from './resolve-ref.js'
export {
  parseLocalRef,
  componentRef,
  getAtPointer,
  decodePointerSegment,
  encodePointerSegment,
} from './pointer.js'
