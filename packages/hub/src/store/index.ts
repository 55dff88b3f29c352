export { openStore, startWait, storeOptions, type StoreOptions } from './open-store.js'
export { StoreConfigError } from './config-error.js'
export { Store, Repos } from './store.js'
export type * from './schema.js'
