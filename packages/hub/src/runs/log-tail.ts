/** The end of what a run's process printed: at most `max` characters, oldest dropped first. */
export class LogTail {
  #parts: string[] = []
  #length = 0
  #dropped = false

  constructor(private readonly max = 16 * 1024) {}

  push(text: string): void {
    this.#parts.push(text)
    this.#length += text.length
    while (this.#length > this.max && this.#parts.length > 1) {
      this.#length -= this.#parts.shift()!.length
      this.#dropped = true
    }
    if (this.#length > this.max) {
      const only = this.#parts[0]!
      this.#parts = [only.slice(only.length - this.max)]
      this.#length = this.max
      this.#dropped = true
    }
  }

  text(): string {
    const text = this.#parts.join('')
    // NUL cannot be stored by PostgreSQL; a lone surrogate half from a cut is dropped too.
    const clean = text.replace(/\0/g, '').replace(/^[\udc00-\udfff]/, '')
    return this.#dropped ? `…${clean}` : clean
  }
}
