/** The request header that carries `t=<unix seconds>,v1=<hex>`. */
export const SIGNATURE_HEADER = 'svc-signature'

/** The `user-agent` of every delivery; its `1` follows the event types' `v1`. */
export const USER_AGENT = 'Svc-Hub-Webhooks/1'

/** The `content-type` of every delivery: a CloudEvent in structured mode. */
export const CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8'
