import type { AllowList } from './allow-list.js'
import { inspectUrl, type CheckedUrl } from './guard.js'

/** URL texts whose verdict a client keeps: a hub's webhooks, a stack's few source hosts. */
export const URL_VERDICTS = 1024

/**
 * The synchronous half of the guard ({@link inspectUrl}), remembered by URL text for one client:
 * for a fixed allow-list it depends on the text alone, and a dispatcher sends to the same few
 * URLs over and over. Only admitted URLs are kept (a refusal is inspected, and thrown, anew);
 * what a name resolves to is never kept: every hop still resolves and checks its addresses.
 */
export class UrlVerdicts {
  readonly #allow: AllowList
  readonly #size: number
  readonly #admitted = new Map<string, CheckedUrl>()

  constructor(allow: AllowList, size: number = URL_VERDICTS) {
    this.#allow = allow
    this.#size = size
  }

  inspect(input: string | URL): CheckedUrl {
    const text = String(input)
    const known = this.#admitted.get(text)
    if (known !== undefined) return known
    const checked = Object.freeze(inspectUrl(text, this.#allow))
    // The oldest entry goes first: a Map iterates in insertion order.
    if (this.#admitted.size >= this.#size) {
      this.#admitted.delete(this.#admitted.keys().next().value as string)
    }
    this.#admitted.set(text, checked)
    return checked
  }
}
