import type { RevisionEvent, TestEvent } from '@svc/webhooks'

/** A secret shaped as the hub makes them: `whsec_` + 32 random bytes, base64url. */
export const SECRET = 'whsec_OmbdZ2CvU463VaAZ-IV364Pa0SKl2rI1F_qXhiGiu70'

const api = {
  id: 'api_01jg7x0k9d',
  owner: 'acme',
  slug: 'petstore',
  name: 'Petstore',
  url: 'https://hub.example.com/acme/apis/petstore',
}

export const revisionEvent: RevisionEvent = {
  specversion: '1.0',
  id: 'evt_01jg7x3m2q',
  source: 'https://hub.example.com',
  subject: 'acme/petstore',
  time: '2026-01-01T00:00:00.000Z',
  datacontenttype: 'application/json',
  type: 'dev.svc.api.revision.v1',
  data: {
    api,
    revision: {
      id: 'rev_2',
      contentHash: 'a'.repeat(64),
      version: '1.1.0',
      publishedAt: null,
      retrievedAt: '2025-12-31T23:59:58.000Z',
      url: 'https://hub.example.com/acme/apis/petstore/revisions/rev_2',
    },
    previousRevision: {
      id: 'rev_1',
      contentHash: 'b'.repeat(64),
      version: '1.0.0',
      publishedAt: '2025-06-01T12:00:00.000Z',
      retrievedAt: '2025-06-01T12:00:05.000Z',
      url: 'https://hub.example.com/acme/apis/petstore/revisions/rev_1',
    },
    profile: 'wire',
    summary: {
      diff: true,
      details: { operations: { added: 1, deleted: 1, modified: 0 } },
    },
    counts: { breaking: 1, warning: 0, info: 1 },
    changesUrl: 'https://hub.example.com/acme/apis/petstore/revisions/rev_2/changes',
  },
}

export const testEvent: TestEvent = {
  specversion: '1.0',
  id: 'evt_01jg7x4a7z',
  source: 'https://hub.example.com',
  subject: 'acme/petstore',
  time: '2026-01-01T00:00:00.000Z',
  datacontenttype: 'application/json',
  type: 'dev.svc.api.test.v1',
  data: { test: true, api, message: 'A test event from the svc hub.' },
}
