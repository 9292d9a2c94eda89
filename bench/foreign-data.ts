/**
 * Real addresses of the foreign registers read straight from the published files (not through
 * the core's importers, so that an importer's mistake shows as a wrong answer): LU CACLR
 * (fixed-width, ISO-8859-1, zipped), CH GWR Bern (CSV), DE Essen house coordinates (zipped
 * GeoJSON), DK DAR 1.0 (ndjson), NO Matrikkelen (CSV). Each row is the truth the evaluation and
 * the tests compare against.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';

import { parse } from 'csv-parse/sync';

import { defaultSourceDir } from '../src/config.js';

export interface TruthAddress {
  country: string;
  street: string;
  number: string;
  postcode: string;
  city: string;
  lat?: number;
  lon?: number;
}

const WORLD = path.join(process.env.RECAPITO_SOURCE_DIR ?? defaultSourceDir(), 'world');

/** Every file of a zip archive by name (central directory; stored or deflated entries). */
export function unzip(file: string): Map<string, Buffer> {
  const b = readFileSync(file);
  let eocd = b.length - 22;
  while (eocd >= 0 && b.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  const count = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = b.readUInt16LE(at + 10);
    const size = b.readUInt32LE(at + 20);
    const nameLen = b.readUInt16LE(at + 28);
    const extraLen = b.readUInt16LE(at + 30);
    const commentLen = b.readUInt16LE(at + 32);
    const local = b.readUInt32LE(at + 42);
    const name = b.subarray(at + 46, at + 46 + nameLen).toString('utf8');
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const data = b.subarray(start, start + size);
    out.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

function latinLines(buf: Buffer): string[] {
  return buf.toString('latin1').split('\r\n').filter((l) => l.length > 0);
}

/** LU: IMMEUBLE (number, suffix, postcode, street id) joined to RUE (name, locality) and LOCALITE. */
export function luxembourg(): TruthAddress[] {
  const z = unzip(path.join(WORLD, 'registers/lu/caclr.zip'));
  const get = (n: string) => z.get(n) ?? Buffer.alloc(0);
  const localities = new Map(latinLines(get('LOCALITE')).map((l) => [l.slice(0, 5), l.slice(5, 45).trim()]));
  const streets = new Map(latinLines(get('RUE')).map((l) => [l.slice(0, 5), { name: l.slice(5, 45).trim(), city: localities.get(l.slice(131, 136)) ?? '' }]));
  const out: TruthAddress[] = [];
  for (const l of latinLines(get('IMMEUBLE'))) {
    const s = streets.get(l.slice(49, 54));
    const postcode = l.slice(38, 42).trim();
    if (!s || !s.city || postcode === '') continue;
    out.push({ country: 'LU', street: s.name, number: `${Number(l.slice(8, 11))}${l.slice(11, 17).trim()}`, postcode, city: s.city });
  }
  return out;
}

/** CH: building entrances of Bern still standing, with their point. */
export function bern(): TruthAddress[] {
  const text = gunzipSync(readFileSync(path.join(WORLD, 'registers/ch/gwr_bern_addresses_2024-09.csv.gz'))).toString('utf8');
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  return rows
    .filter((r) => !r.Abbruch && r.Breitengrad && /^\d+[a-z]?$/.test(r.Hausnummer ?? ''))
    .map((r) => ({ country: 'CH', street: r.Strasse ?? '', number: r.Hausnummer ?? '', postcode: r.PLZ ?? '', city: r.Ort ?? '', lat: Number(r.Breitengrad), lon: Number(r['Längengrad']) }));
}

/** DE: the official house coordinates of Essen (no postcode in the file). */
export function essen(): TruthAddress[] {
  const z = unzip(path.join(WORLD, 'registers/de/hauskoordinaten_essen_2022-10-05_4326.zip'));
  const json = [...z.entries()].find(([n]) => n.endsWith('.geojson'))?.[1];
  const fc = JSON.parse(json?.toString('utf8') ?? '{"features":[]}') as {
    features: { properties: Record<string, string | undefined>; geometry: { coordinates: number[] } | null }[];
  };
  return fc.features
    .filter((f) => f.properties.hsnr && f.properties.strname && !f.properties.strname.startsWith('#') && f.geometry)
    .map((f) => ({
      country: 'DE',
      street: f.properties.strname ?? '',
      number: `${f.properties.hsnr}${f.properties.hsnrzu ?? ''}`,
      postcode: '',
      city: 'Essen',
      lat: f.geometry?.coordinates[1],
      lon: f.geometry?.coordinates[0],
    }));
}

/** DK: DAR 1.0 `adressebetegnelse` of current addresses (`Ridehusgade 49, 2. th, 5000 Odense C`). */
export function denmark(): TruthAddress[] {
  const text = gunzipSync(readFileSync(path.join(WORLD, 'registers/dk/dar10/Adresse.ndjson.gz'))).toString('utf8');
  const seen = new Set<string>();
  const out: TruthAddress[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const a = JSON.parse(line) as { status: string; adressebetegnelse?: string };
    if (a.status !== '3' || !a.adressebetegnelse) continue;
    const parts = a.adressebetegnelse.split(', ');
    const m = /^(.*) (\d+[A-Z]?)$/.exec(parts[0] ?? '');
    const pc = /^(\d{4}) (.*)$/.exec(parts[parts.length - 1] ?? '');
    if (!m || !pc) continue;
    const key = `${m[1]}|${m[2]}|${pc[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ country: 'DK', street: m[1] ?? '', number: m[2] ?? '', postcode: pc[1] ?? '', city: pc[2] ?? '' });
  }
  return out;
}

/** NO: Matrikkelen addresses (Kristiansand sample). */
export function norway(): TruthAddress[] {
  const text = readFileSync(path.join(WORLD, 'registers/no/matrikkelenAdresse_sample.csv'), 'utf8').replace(/^\uFEFF/, '');
  const rows = parse(text, { columns: true, delimiter: ';' }) as Record<string, string>[];
  return rows
    .filter((r) => r.adressenavn && r.nummer)
    .map((r) => ({ country: 'NO', street: r.adressenavn ?? '', number: `${r.nummer}${r.bokstav ?? ''}`, postcode: r.postnummer ?? '', city: r.poststed ?? '' }));
}

export const SAMPLERS: Record<string, () => TruthAddress[]> = { LU: luxembourg, CH: bern, DE: essen, DK: denmark, NO: norway };

/** Deterministic pseudo-random numbers, so two runs perturb alike. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Metres between two points (equirectangular: plenty at 150 m). */
export function metres(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const x = ((bLon - aLon) * Math.PI) / 180 * Math.cos(((aLat + bLat) / 2) * Math.PI / 180);
  const y = ((bLat - aLat) * Math.PI) / 180;
  return Math.sqrt(x * x + y * y) * 6_371_000;
}
