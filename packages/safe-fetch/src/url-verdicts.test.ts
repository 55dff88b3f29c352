import { describe, expect, it } from 'vitest'
import { OutboundRefused, parseAllowList } from './index.js'
import { UrlVerdicts } from './url-verdicts.js'

describe('URL verdicts', () => {
  const allow = parseAllowList('127.0.0.1/32')

  it('inspects a URL text once and answers the same verdict after', () => {
    const verdicts = new UrlVerdicts(allow)
    const first = verdicts.inspect('http://127.0.0.1:8080/w/1')
    expect(first).toMatchObject({ kind: 'address', url: new URL('http://127.0.0.1:8080/w/1') })
    expect(verdicts.inspect('http://127.0.0.1:8080/w/1')).toBe(first)
    expect(verdicts.inspect(new URL('http://127.0.0.1:8080/w/1'))).toBe(first)
    expect(verdicts.inspect('https://hooks.example.com/a')).toMatchObject({
      kind: 'name',
      name: 'hooks.example.com',
      admitted: false,
    })
  })

  it('keeps no refusal: a refused URL is refused again, each time with its own error', () => {
    const verdicts = new UrlVerdicts(allow)
    const refusal = (url: string) => {
      try {
        verdicts.inspect(url)
      } catch (error) {
        return error
      }
      return undefined
    }
    const first = refusal('http://10.0.0.1/hook')
    const second = refusal('http://10.0.0.1/hook')
    expect(first).toBeInstanceOf(OutboundRefused)
    expect(second).toBeInstanceOf(OutboundRefused)
    expect(second).not.toBe(first)
    expect(second).toMatchObject({ code: 'private_address' })
  })

  it('forgets the oldest text beyond its size', () => {
    const verdicts = new UrlVerdicts(allow, 2)
    const a = verdicts.inspect('http://127.0.0.1/a')
    verdicts.inspect('http://127.0.0.1/b')
    expect(verdicts.inspect('http://127.0.0.1/a')).toBe(a)
    verdicts.inspect('http://127.0.0.1/c')
    expect(verdicts.inspect('http://127.0.0.1/a')).not.toBe(a)
  })
})
