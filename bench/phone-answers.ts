/**
 * The phone service's answers on a fixed set of real and malformed inputs, one JSON line each (the input, the
 * billing units and the answer in English and Italian), so that a rewrite of the service's work can be checked
 * to give byte for byte the same answers as before it:
 *
 *   node dist/bench/phone-answers.js write .tmp/phone-answers.jsonl   (before the change)
 *   node dist/bench/phone-answers.js check .tmp/phone-answers.jsonl   (after: exits 1 on the first difference)
 *
 * Inputs: every district prefix (the bench's landlines, plus every length, separator and international form),
 * every mobile block, every comune's prefix, the curated special numbers at each of their lengths, the library's
 * example mobile number of every country (international, 00, national with the record's country, national read
 * as Italian, trunk zero after the code), fields holding several numbers, extensions, notes and labels, and
 * malformed texts. Random tails come from a fixed seed, so two runs see the same inputs.
 */
import examples from 'libphonenumber-js/examples.mobile.json';

import type { Language } from '../src/http/language.js';
import { capability } from '../src/phone/service.js';
import { contactDataDir, digitsFrom, phoneCsv } from '../test/helpers/light.js';
import { answerArgs, writeOrCheck } from './answer-file.js';

type Input = Record<string, string | number>;

function inputs(): Input[] {
  const random = digitsFrom(20261125);
  const out: Input[] = [];
  const prefixes = phoneCsv('it_prefissi_distretti.csv').map((r) => r.prefisso!).filter((p) => /^0\d+$/.test(p));
  const mobiles = phoneCsv('it_mobile_prefix_operator.csv').map((r) => r.prefisso_nazionale!);
  const comuni = [...new Set(phoneCsv('it_comuni_prefisso.csv').map((r) => r.prefisso!).filter(Boolean))];

  // the load bench's numbers, as it builds them
  for (const p of prefixes) out.push({ phone: `${p} ${'4567890123'.slice(0, 10 - p.length)}` });
  for (const m of mobiles) out.push({ phone: `+39 ${m}${'1234567'.slice(0, 10 - m.length)}` });
  // the profile's numbers
  for (let n = 0; n < 300; n++) out.push({ phone: `02 ${1000000 + ((n * 7919) % 8999999)}` });

  for (const p of prefixes) {
    for (let length = 6; length <= 12; length++) {
      const tail = random(Math.max(1, length - p.length));
      out.push({ phone: `${p}${tail}` });
      if (length === 10) {
        out.push({ phone: `${p}/${tail}` }, { phone: `${p}-${tail}` }, { phone: `(${p}) ${tail}` }, { phone: `+39 ${p} ${tail}` });
        out.push({ phone: `0039${p}${tail}` }, { phone: `39${p}${tail}` }, { phone: `+39 (0)${p.slice(1)} ${tail}` });
        out.push({ phone: `${p} ${tail}`, format: 'international' }, { phone: `${p} ${tail}`, format: 'internazionale' });
        out.push({ phone: `${p} ${tail}`, country_code: 'DE' }, { phone: `${p} ${tail}`, country: 'Italia' });
      }
    }
  }
  for (const p of comuni) out.push({ phone: `${p} ${random(10 - p.length)}` });
  for (const m of mobiles) {
    for (let length = 8; length <= 12; length++) {
      const tail = random(Math.max(1, length - m.length));
      out.push({ phone: `${m}${tail}` }, { phone: `+39${m}${tail}` }, { phone: `39 ${m} ${tail}` });
    }
    const tail = random(10 - m.length);
    out.push({ phone: `${m.padEnd(3, tail)} ${tail.slice(3 - m.length)}`, format: 'international' });
    out.push({ phone: `${m}${tail}`, country_code: 'SM' }, { phone: `${m}${tail}`, country_code: 'VA' });
  }

  for (const row of phoneCsv('it_numerazioni_speciali.csv')) {
    const [from, to] = row.lunghezza_cifre!.split('-').map(Number) as [number, number | undefined];
    for (let length = from - 1; length <= (to ?? from) + 1; length++) {
      const number = `${row.prefisso}${random(Math.max(0, length - row.prefisso!.length))}`;
      out.push({ phone: number }, { phone: `+39 ${number}` }, { phone: number, country_code: 'FR' });
    }
  }

  for (const [country, national] of Object.entries(examples as Record<string, string>)) {
    out.push({ phone: national, country_code: country }, { phone: national, country_code: country, format: 'international' });
    out.push({ phone: national }, { phone: `00${national}`, country_code: country });
  }
  // international forms need the calling code, which the example file does not carry: the service's own e164 gives it
  out.push({ phone: '+44 (0)20 7946 0958' }, { phone: '+49 (0)30 1234567' }, { phone: '+33 (0)1 42 68 53 00' });
  out.push({ phone: '+41 44 668 18 00' }, { phone: '+1 212 555 0123' }, { phone: '+1 (650) 253-0000' }, { phone: '+86 10 1234 5678' });
  out.push({ phone: '030 1234567', country_code: 'DE' }, { phone: '030 1234567', country: 'Germania' }, { phone: '030 1234567', country: 'Deutschland' });
  out.push({ phone: '01 42 68 53 00', country: 'France' }, { phone: '020 7946 0958', country_code: 'GB' }, { phone: '020 7946 0958', country: 'Regno Unito' });
  out.push({ phone: '06 12345678', country_code: 'XX' }, { phone: '06 12345678', country: 'Atlantide' }, { phone: '06 12345678', country_code: 'ZZZ' });

  // fields with several numbers, extensions, notes, labels
  const words = [
    'tel. 02 12345678 / cell. 333 1234567 / fax 06 1234567',
    '02 1234567 / 333 1234567 / 06 1234567',
    '06/1234567',
    '06/1234567 int. 23',
    '0512345678 ext 4',
    '02 12345678 (solo mattina)',
    '333 1234567 oppure 347 7654321',
    '02 1234567; 02 7654321; 02 1111111; 02 2222222; 02 3333333',
    '0039 02 12345678 - 0039 333 1234567',
    '+39 333 1234567 +39 02 1234567',
    '051 6345678 23',
    'Tel: 0516345678, Fax: 0516345679',
    'cellulare 3391234567 (Mario) casa 051 234567',
    '+41 44 668 18 00 / +39 02 12345678',
    '02\u20131234567',
    '02\u22121234567 x 12',
    'WhatsApp +39 333 123 4567',
    'ufficio 02.12.34.56.78',
    '[02] 1234567',
    '348 12 34 567 / 02 87 65 432 int 3 (segreteria)',
  ];
  for (const phone of words) out.push({ phone }, { phone, format: 'international' }, { phone, country_code: 'CH' });

  // malformed and odd
  const odd = ['', '   ', 'abc', 'non ho telefono', '12', '1', '+', '++39', '00', '0', '000000000', '++393331234567', '+39+333', '3', '1234567890123456789', '0'.repeat(30), '9'.repeat(14), '+999 12345678', '+39', '+39 0', '😀 333 1234567', '333-123-4567-', '..//--', '(((02)))1234567', '333 1234567 e 02 1234567 e 06 1234567 e 011 123456'];
  for (const phone of odd) out.push({ phone }, { phone, country_code: 'US' });
  out.push({ phone: 3331234567 }, { phone: 21234567 }, { phone: 0 });
  for (let i = 0; i < 1500; i++) {
    const length = 3 + (i % 13);
    const lead = ['', '0', '3', '+39', '+', '00', '8', '1'][i % 8]!;
    out.push({ phone: `${lead}${random(length)}` });
  }
  return out;
}

async function main(): Promise<void> {
  const { mode, file } = answerArgs('phone-answers');
  const dataDir = await contactDataDir();
  const lines: string[] = [];
  for (const input of inputs()) {
    const answers: Record<string, unknown> = { input };
    for (const language of ['en', 'it'] as Language[]) {
      // billing reads the split before the verification does, as the endpoint does
      const item = capability.item.parse(input);
      const units = capability.units(item);
      const [result] = await capability.run([item], { language, dataDir, allowPrivateNetwork: false });
      answers[language] = { units, result };
    }
    lines.push(JSON.stringify(answers));
  }
  writeOrCheck(mode, file, lines);
}

await main();
