export {
  openStore,
  startWait,
  storeOptions,
  StoreConfigError,
  type StoreOptions,
} from './open-store.js'
export { Store, Repos } from './store.js'
export type * from './schema.js'
