import { storeKinds } from './support/databases.js'
import { webhookReliability } from './webhook-reliability.case.js'

// One file per store, so that the two halves of this long suite run at the same time.
webhookReliability('postgres', !(await storeKinds()).includes('postgres'))
