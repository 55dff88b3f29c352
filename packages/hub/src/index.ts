export { createApp } from './app.js'
export { loadConfig, type HubConfig } from './config.js'
export { startHub, createLogger, type RunningHub } from './server.js'
export { openStore, Store, type StoreOptions } from './store/index.js'
