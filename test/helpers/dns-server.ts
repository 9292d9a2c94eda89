import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

import dnsPacket from 'dns-packet';

/** Records of one name in the test zone. A name absent from the zone answers NXDOMAIN. */
export interface ZoneEntry {
  A?: string[];
  AAAA?: string[];
  MX?: { exchange: string; preference: number }[];
  ttl?: number;
  /** Never answered: the client must give up on its own. */
  silent?: boolean;
}

export interface DnsResponder {
  /** `127.0.0.1:port`, what ProcessContext.dnsServer takes. */
  server: string;
  zone: Map<string, ZoneEntry>;
  /** Questions received, `TYPE name`, in order. */
  queries: string[];
  close(): Promise<void>;
}

/** A real UDP DNS server on 127.0.0.1 answering from an in-memory zone (dns-packet wire format). */
export async function startDnsResponder(zone: Map<string, ZoneEntry>): Promise<DnsResponder> {
  const socket = dgram.createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (msg, rinfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    if (!q) return;
    const name = q.name.toLowerCase().replace(/\.$/, '');
    queries.push(`${q.type} ${name}`);
    const entry = zone.get(name);
    if (entry?.silent) return;
    const ttl = entry?.ttl ?? 300;
    const answers: dnsPacket.Answer[] = [];
    if (entry && q.type === 'A') for (const a of entry.A ?? []) answers.push({ type: 'A', name: q.name, ttl, data: a });
    if (entry && q.type === 'AAAA') for (const a of entry.AAAA ?? []) answers.push({ type: 'AAAA', name: q.name, ttl, data: a });
    if (entry && q.type === 'MX') for (const m of entry.MX ?? []) answers.push({ type: 'MX', name: q.name, ttl, data: m });
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (entry ? 0 : 3),
      questions: query.questions,
      answers,
    });
    socket.send(response, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    server: `127.0.0.1:${port}`,
    zone,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
