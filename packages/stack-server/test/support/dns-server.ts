import * as dgram from 'node:dgram'

/** One question the server was asked. */
export type DnsQuery = { readonly name: string; readonly type: string }

export type DnsServer = {
  readonly port: number
  /** `127.0.0.1:<port>`, as SVC_STACK_DNS_SERVERS takes it. */
  readonly address: string
  readonly queries: readonly DnsQuery[]
  close(): Promise<void>
}

const TYPE_NAMES: Readonly<Record<number, string>> = { 1: 'A', 28: 'AAAA' }
const TYPE_A = 1
const CLASS_IN = 1

/**
 * A DNS server over UDP on 127.0.0.1: a name of `records` gets its IPv4 addresses for A and an
 * empty NOERROR answer for any other type (AAAA); any other name is NXDOMAIN. Records every query.
 */
export async function startDnsServer(
  records: Readonly<Record<string, readonly string[]>>,
): Promise<DnsServer> {
  const queries: DnsQuery[] = []
  const socket = dgram.createSocket('udp4')
  socket.on('message', (message, peer) => {
    const question = parseQuestion(message)
    if (!question) return
    queries.push({ name: question.name, type: TYPE_NAMES[question.type] ?? String(question.type) })
    const known = Object.hasOwn(records, question.name)
    const addresses = known && question.type === TYPE_A ? records[question.name]! : []
    socket.send(answer(message, question.end, addresses, known ? 0 : 3), peer.port, peer.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const port = socket.address().port
  return {
    port,
    address: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}

/** The first question of a query: its name (lowercased), type, and where the question ends. */
function parseQuestion(message: Buffer): { name: string; type: number; end: number } | undefined {
  if (message.length < 12 || message.readUInt16BE(4) < 1) return undefined
  const labels: string[] = []
  let offset = 12
  for (;;) {
    const length = message[offset]
    if (length === undefined || length > 63) return undefined
    offset += 1
    if (length === 0) break
    labels.push(message.toString('latin1', offset, offset + length))
    offset += length
  }
  if (offset + 4 > message.length) return undefined
  return {
    name: labels.join('.').toLowerCase(),
    type: message.readUInt16BE(offset),
    end: offset + 4,
  }
}

/** A response echoing the query's id and first question, with one A record per address. */
function answer(query: Buffer, questionEnd: number, addresses: readonly string[], rcode: number) {
  const header = Buffer.alloc(12)
  header.writeUInt16BE(query.readUInt16BE(0), 0)
  header[2] = 0x84 | (query[2]! & 0x01) // QR, AA, and the query's RD
  header[3] = 0x80 | rcode // RA
  header.writeUInt16BE(1, 4) // QDCOUNT
  header.writeUInt16BE(addresses.length, 6) // ANCOUNT
  const answers = addresses.map((address) => {
    const record = Buffer.alloc(16)
    record.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
    record.writeUInt16BE(TYPE_A, 2)
    record.writeUInt16BE(CLASS_IN, 4)
    record.writeUInt32BE(60, 6) // TTL
    record.writeUInt16BE(4, 10)
    Buffer.from(address.split('.').map(Number)).copy(record, 12)
    return record
  })
  return Buffer.concat([header, query.subarray(12, questionEnd), ...answers])
}
