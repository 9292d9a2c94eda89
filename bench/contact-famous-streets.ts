/**
 * Famous and ordinary streets of Italian cities as people type them (abbreviated, first names and
 * regnal numbers left out, ordinals in another form, another type): each case names the register's
 * street (ANNCSU, as written there) that is the right answer, or — `ambiguous` — the streets among
 * which `STREET_AMBIGUOUS` with candidates is the right answer. Written by hand from what people
 * write, the expected streets looked up in ANNCSU (`shared/data/it/anncsu_odonimi`), not in our answers.
 *
 * Right: the street expected (for an ambiguity, one of them, or STREET_AMBIGUOUS with one of them
 * among the candidates); abstained: no street; wrong: another street answered.
 * Run: npm run build:ts && RECAPITO_DATA_DIR=… node dist/bench/contact-famous-streets.js [--all]
 */
import { verifyContacts } from '../src/native.js';
import { contactBenchDataDir } from './contact-register.js';

/** The streets expected: their name and ANNCSU id (progressivo nazionale) as the register has them. */
type Case = [address: string, city: string, province: string, postcode: string, ambiguous: boolean, streets: [string, number][]];

const CASES: Case[] = [
  ["Via del Corso 12", "Roma", "RM", "00186", false, [["VIA DEL CORSO", 910862]]],
  ["via nazionale 50", "Roma", "RM", "", false, [["VIA NAZIONALE", 917838]]],
  ["Via C. Colombo 100", "Roma", "RM", "", false, [["VIA CRISTOFORO COLOMBO", 909794]]],
  ["Via Cristoforo Colombo 440", "Roma", "", "00145", false, [["VIA CRISTOFORO COLOMBO", 909794]]],
  ["Via Appia Nuova 200", "Roma", "RM", "", false, [["VIA APPIA NUOVA", 907386]]],
  ["Viale Trastevere 50", "Roma", "RM", "", false, [["VIALE DI TRASTEVERE", 912747]]],
  ["P.zza Venezia", "Roma", "RM", "", false, [["PIAZZA VENEZIA", 921267]]],
  ["Corso Vittorio Emanuele 100", "Roma", "RM", "", false, [["CORSO VITTORIO EMANUELE SECONDO", 921561]]],
  ["Via XX Settembre 5", "Roma", "RM", "", false, [["VIA VENTI SETTEMBRE", 921271]]],
  ["Via Gregorio VII 100", "Roma", "RM", "", false, [["VIA GREGORIO SETTIMO", 915752]]],
  ["Via S. Giovanni in Laterano 10", "Roma", "RM", "", false, [["VIA DI SAN GIOVANNI IN LATERANO", 912564]]],
  ["Via Tuscolana 500", "Roma", "RM", "", false, [["VIA TUSCOLANA", 920975]]],
  ["Viale Regina Margherita 100", "Roma", "RM", "", false, [["VIALE REGINA MARGHERITA", 919317]]],
  ["Via dei Fori Imperiali", "Roma", "RM", "", false, [["VIA DEI FORI IMPERIALI", 910313]]],
  ["Via 24 Maggio 10", "Roma", "RM", "", false, [["VIA VENTIQUATTRO MAGGIO", 921274]]],
  ["L.go Gen. Gonzaga del Vodice 10", "Roma", "RM", "", false, [["LARGO GENERALE GONZAGA DEL VODICE", 914541]]],
  ["corso vittorio emanuele 15", "Milano", "MI", "", false, [["CORSO VITTORIO EMANUELE II", 1030228]]],
  ["Via Dante 2", "Milano", "MI", "20121", false, [["VIA DANTE", 1027119]]],
  ["Via Corti 16", "Milano", "", "20131", true, [["VIA ALFONSO CORTI", 1026218], ["VIA COSTANTINO CORTI", 1027076]]],
  ["Via Mandolfo 7", "Milano", "", "20138", false, [["VIA UGO GUIDO MONDOLFO", 1030035]]],
  ["Corso XXII Marzo 10", "Milano", "MI", "", false, [["CORSO VENTIDUE MARZO", 1030252]]],
  ["Corso 22 Marzo 10", "Milano", "MI", "", false, [["CORSO VENTIDUE MARZO", 1030252]]],
  ["C.so Buenos Aires 10", "Milano", "MI", "", false, [["CORSO BUENOS AIRES", 1026700]]],
  ["V.le Monza 100", "Milano", "MI", "", false, [["VIALE MONZA", 1029037]]],
  ["P.zza Duomo 1", "Milano", "MI", "", false, [["PIAZZA DEL DUOMO", 1027247]]],
  ["Via Montenapoleone 8", "Milano", "MI", "", false, [["VIA MONTE NAPOLEONE", 1029004]]],
  ["Via P. Sarpi 10", "Milano", "MI", "", false, [["VIA PAOLO SARPI", 1029210]]],
  ["V.le F. Testi 100", "Milano", "MI", "", false, [["VIALE FULVIO TESTI", 1027898]]],
  ["Via Washington 20", "Milano", "MI", "", false, [["VIA GIORGIO WASHINGTON", 1028094]]],
  ["Via Pio XI 5", "Milano", "MI", "", false, [["PIAZZA PIO XI", 1029363]]],
  ["C.so di P.ta Romana 10", "Milano", "MI", "", false, [["CORSO DI PORTA ROMANA", 1027381]]],
  ["P.zza Card. Ferrari 5", "Milano", "MI", "", false, [["PIAZZA CARDINALE ANDREA FERRARI", 1026773]]],
  ["Corso Vittorio Emanuele 100", "Torino", "TO", "", false, [["CORSO VITTORIO EMANUELE SECONDO", 316709]]],
  ["C.so Vittorio Emanuele II 10", "Torino", "TO", "", false, [["CORSO VITTORIO EMANUELE SECONDO", 316709]]],
  ["Via Po 10", "Torino", "TO", "", false, [["VIA PO", 316117]]],
  ["Corso Francia 200", "Torino", "TO", "", false, [["CORSO FRANCIA", 315453]]],
  ["Via Garibaldi 10", "Torino", "TO", "", false, [["VIA GARIBALDI GIUSEPPE", 315494]]],
  ["P.zza S. Carlo 200", "Torino", "TO", "", false, [["PIAZZA SAN CARLO", 316357]]],
  ["Corso Re Umberto 10", "Torino", "TO", "", false, [["CORSO RE UMBERTO", 316205]]],
  ["Via Nizza 100", "Torino", "TO", "", false, [["VIA NIZZA", 315935]]],
  ["C.so Unione Sovietica 200", "Torino", "TO", "", false, [["CORSO UNIONE SOVIETICA", 316591]]],
  ["Via Toledo 200", "Napoli", "NA", "", false, [["VIA TOLEDO", 1242226]]],
  ["Via Caracciolo", "Napoli", "NA", "", true, [["PIAZZETTA PONTE CARACCIOLO", 1242702], ["VIA BARTOLOMEO CARACCIOLO", 1239023], ["VIA BATTISTELLO CARACCIOLO", 1239028], ["VIA CARACCIOLO DI BELLA", 1239188], ["VIA FRANCESCO CARACCIOLO", 1240137], ["VIA TRISTANO CARACCIOLO", 1242282]]],
  ["Corso Umberto I 100", "Napoli", "NA", "", false, [["CORSO UMBERTO PRIMO", 1242303]]],
  ["Corso Umberto Primo 100", "Napoli", "NA", "", false, [["CORSO UMBERTO PRIMO", 1242303]]],
  ["Via Chiaia 10", "Napoli", "NA", "", false, [["VIA CHIAIA", 1239324]]],
  ["Piazza Garibaldi 1", "Napoli", "NA", "", false, [["PIAZZA GIUSEPPE GARIBALDI", 1240412]]],
  ["Via Foria 100", "Napoli", "NA", "", false, [["VIA FORIA", 1240111]]],
  ["Via Scarlatti 50", "Napoli", "NA", "", false, [["VIA ALESSANDRO SCARLATTI", 1238851]]],
  ["Via dei Tribunali 10", "Napoli", "NA", "", false, [["VIA DEI TRIBUNALI", 1242269]]],
  ["Via Petrarca 10", "Napoli", "NA", "", false, [["VIA FRANCESCO PETRARCA", 1240178]]],
  ["Via Sparano 10", "Bari", "BA", "", false, [["VIA SPARANO DA BARI", 1326856]]],
  ["Corso Cavour 100", "Bari", "BA", "", false, [["CORSO CAVOUR", 1325516]]],
  ["Corso Vittorio Emanuele II 10", "Bari", "BA", "", false, [["CORSO VITTORIO EMANUELE SECONDO", 1327042]]],
  ["Lungomare N. Sauro 10", "Bari", "BA", "", false, [["LUNGOMARE NAZARIO SAURO", 1326474]]],
  ["Via Argiro 50", "Bari", "BA", "", false, [["VIA ARGIRO", 1325332]]],
  ["Via de' Tornabuoni 10", "Firenze", "FI", "", false, [["VIA DEI TORNABUONI", 1162636]]],
  ["Via Calzaiuoli 5", "Firenze", "FI", "", false, [["VIA DEI CALZAIOLI", 1162345]]],
  ["P.zza della Signoria", "Firenze", "FI", "", false, [["PIAZZA DELLA SIGNORIA", 1162919]]],
  ["Viale Redi 50", "Firenze", "FI", "", false, [["VIALE FRANCESCO REDI", 1163386]]],
  ["Borgo Ognissanti 10", "Firenze", "FI", "", false, [["BORGO OGNISSANTI", 1163887]]],
  ["Via Ricasoli 10", "Firenze", "FI", "", false, [["VIA RICASOLI", 1164017]]],
  ["Via XX Settembre 10", "Genova", "GE", "", false, [["VIA VENTI SETTEMBRE", 928269]]],
  ["Via Balbi 5", "Genova", "GE", "", false, [["VIA BALBI", 925091]]],
  ["Corso Italia 10", "Genova", "GE", "", false, [["CORSO ITALIA", 927038]]],
  ["Piazza De Ferrari", "Genova", "GE", "", false, [["PIAZZA RAFFAELE DE FERRARI", 927687]]],
  ["Via Maqueda 100", "Palermo", "PA", "", false, [["VIA MAQUEDA", 575519]]],
  ["Via Libertà 50", "Palermo", "PA", "", false, [["VIA DELLA LIBERTA'", 574021]]],
  ["Via R. Settimo 10", "Palermo", "PA", "", false, [["VIA RUGGIERO SETTIMO", 576425]]],
  ["Corso Vittorio Emanuele 100", "Palermo", "PA", "", false, [["VIA VITTORIO EMANUELE", 577228]]],
  ["Viale Strasburgo 100", "Palermo", "PA", "", false, [["VIALE STRASBURGO", 576877]]],
  ["Via Etnea 100", "Catania", "CT", "", false, [["VIA ETNEA", 1047456]]],
  ["Corso Italia 50", "Catania", "CT", "", false, [["CORSO ITALIA", 1047862]]],
  ["Via Indipendenza 10", "Bologna", "BO", "", false, [["VIA DELL'INDIPENDENZA", 759372]]],
  ["Strada Maggiore 20", "Bologna", "BO", "40125", false, [["STRADA MAGGIORE", 759949]]],
  ["Via Rizzoli 5", "Bologna", "BO", "", false, [["VIA FRANCESCO RIZZOLI", 759590]]],
  ["Via U. Bassi 10", "Bologna", "BO", "", false, [["VIA UGO BASSI", 760387]]],
  ["Via Irnerio 10", "Bologna", "BO", "", false, [["VIA IRNERIO", 759838]]],
  ["Via Mazzini 10", "Verona", "VR", "", false, [["VIA GIUSEPPE MAZZINI", 170581]]],
  ["Corso Porta Nuova 10", "Verona", "VR", "", false, [["CORSO PORTA NUOVA", 171026]]],
  ["Piazza Bra", "Verona", "VR", "", false, [["PIAZZA BRA'", 169851]]],
  ["Prato della Valle 10", "Padova", "PD", "", false, [["PIAZZA PRATO DELLA VALLE", 271819]]],
  ["Via Carducci 10", "Trieste", "TS", "", false, [["VIA GIOSUE' CARDUCCI", 734137]]],
  ["Piazza Unità d'Italia 1", "Trieste", "TS", "", false, [["PIAZZA DELL'UNITA' D'ITALIA", 733937]]],
  ["Largo Carlo Felice 10", "Cagliari", "CA", "", false, [["LARGO CARLO FELICE DI SAVOIA", 1156551]]],
  ["Via Sonnino 10", "Cagliari", "CA", "", false, [["VIA SIDNEY SONNINO", 1157548]]],
  ["Corso Vannucci 10", "Perugia", "PG", "", false, [["CORSO PIETRO VANNUCCI", 946463]]],
  ["P.zza IV Novembre", "Perugia", "PG", "", false, [["PIAZZA QUATTRO NOVEMBRE", 945856]]],
  ["Corso Garibaldi 10", "Ancona", "AN", "", false, [["CORSO GIUSEPPE GARIBALDI", 385689]]],
  ["Corso Umberto I 10", "Pescara", "PE", "", false, [["CORSO UMBERTO PRIMO", 129981]]],
  ["Corso Vittorio Emanuele 10", "Salerno", "SA", "", false, [["CORSO VITTORIO EMANUELE", 359948]]],
  ["Corso Zanardelli 10", "Brescia", "BS", "", false, [["CORSO GIUSEPPE ZANARDELLI", 189441]]],
  ["Viale Papa Giovanni XXIII 10", "Bergamo", "BG", "", false, [["VIALE PAPA GIOVANNI VENTITREESIMO", 241282]]],
  ["Viale Papa Giovanni 23 10", "Bergamo", "BG", "", false, [["VIALE PAPA GIOVANNI VENTITREESIMO", 241282]]],
  ["Strada della Repubblica 10", "Parma", "PR", "", false, [["STRADA DELLA REPUBBLICA", 529901]]],
  ["Via Emilia Centro 10", "Modena", "MO", "", false, [["VIA EMILIA CENTRO", 741947]]],
  ["Via Belenzani 10", "Trento", "TN", "", false, [["VIA RODOLFO BELENZANI", 1319781]]],
  ["Corso Garibaldi 100", "Reggio di Calabria", "RC", "", false, [["CORSO GIUSEPPE GARIBALDI", 1270396]]],
  ["Viale S. Martino 100", "Messina", "ME", "", false, [["VIALE SAN MARTINO", 1302768]]],
  ["Banchi di Sopra 10", "Siena", "SI", "", false, [["ASSENTE BANCHI DI SOPRA", 674266]]],
  ["Borgo Stretto 10", "Pisa", "PI", "", false, [["BORGO STRETTO", 789160]]],
  ["Via Grande 10", "Livorno", "LI", "", false, [["VIA GRANDE", 136294]]],
  ["Via Mercatovecchio 10", "Udine", "UD", "", false, [["VIA MERCATOVECCHIO", 520565]]],
  ["Via D'Aquino 10", "Taranto", "TA", "", false, [["VIA NICCOLO' TOMMASO D'AQUINO", 179344]]],
  ["Corso d'Augusto 10", "Rimini", "RN", "", false, [["CORSO D'AUGUSTO", 591125]]],
  ["Corso Ercole I d'Este 10", "Ferrara", "FE", "", false, [["CORSO ERCOLE PRIMO D'ESTE", 1083202]]],
  ["Corso Palladio 10", "Vicenza", "VI", "", false, [["CORSO ANDREA PALLADIO", 163872]]],
  ["Via Fillungo 10", "Lucca", "LU", "", false, [["VIA FILLUNGO", 856386]]],
  ["Via Italia 10", "Monza", "MB", "", false, [["VIA ITALIA", 821800]]],
  ["Corso Cavour 10", "Novara", "NO", "", false, [["CORSO CAMILLO BENSO DI CAVOUR", 141582]]],
  ["Corso Trieste 10", "Caserta", "CE", "", false, [["CORSO TRIESTE", 803387]]],
  ["Corso Mazzini 10", "Cosenza", "CS", "", false, [["CORSO GIUSEPPE MAZZINI", 1133100]]],
  ["Via Pretoria 10", "Potenza", "PZ", "", false, [["VIA PRETORIA", 393840]]],
  ["Corso Matteotti 10", "Siracusa", "SR", "", false, [["CORSO GIACOMO MATTEOTTI", 226563]]],
  ["Via Ridola 10", "Matera", "MT", "", false, [["VIA DOMENICO RIDOLA", 658697]]],
  ["Via Sant'Anselmo 10", "Aosta", "AO", "", false, [["VIA SANT'ANSELMO", 806311]]],
  ["Corso Vittorio Emanuele 10", "L'Aquila", "AQ", "", false, [["VIA VITTORIO EMANUELE", 1280242]]],
  ["Via Atenea 10", "Agrigento", "AG", "", false, [["VIA ATENEA", 813258]]],
  ["Via Fardella 10", "Trapani", "TP", "", false, [["VIA GIOVAN BATTISTA FARDELLA", 245527]]],
  ["Via Roma 10", "Sassari", "SS", "", false, [["VIA ROMA", 212564]]],
  ["Via Cavour 10", "Ravenna", "RA", "", false, [["VIA CAMILLO BENSO CONTE DI CAVOUR", 893819]]],
  ["Via Duomo 10", "Napoli", "NA", "", false, [["VIA DUOMO", 1239932]]],
  ["Via Cavour 10", "Parma", "PR", "", false, [["STRADA CAVOUR", 529755]]],
  ["Via Pisacane 10", "Milano", "MI", "", false, [["VIA CARLO PISACANE", 1026856]]],
  ["Via Gramsci 10", "Genova", "GE", "", false, [["VIA ANTONIO GRAMSCI", 925008]]],
  ["Via Matteotti 10", "Bergamo", "BG", "", true, [["PIAZZA GIACOMO MATTEOTTI", 241001]]],
  ["Via Marconi 10", "Bologna", "BO", "", false, [["VIA GUGLIELMO MARCONI", 759818]]],
  ["Via Kennedy 10", "Parma", "PR", "", false, [["VIA JOHN FITZGERALD KENNEDY", 530388]]],
  ["Via Martiri della Libertà 10", "Padova", "PD", "", false, [["VIA MARTIRI DELLA LIBERTA'", 272581]]],
  ["Via Don Minzoni 10", "Ravenna", "RA", "", false, [["VIA DON GIOVANNI MINZONI", 894170]]],
  ["Via Aldo Moro 10", "Lecce", "LE", "", false, [["VIALE ALDO MORO", 1169084]]],
  ["Via S. Francesco d'Assisi 10", "Torino", "TO", "", false, [["VIA SAN FRANCESCO D'ASSISI", 316393]]],
  ["Via Vittorio Veneto 10", "Catanzaro", "CZ", "", false, [["VIA VITTORIO VENETO", 840689]]],
  ["Piazza Matteotti 1", "Genova", "GE", "", false, [["PIAZZA GIACOMO MATTEOTTI", 926743]]],
  ["Corso Italia 100", "Pisa", "PI", "", false, [["CORSO ITALIA", 789759]]],
];

async function main(): Promise<void> {
  await contactBenchDataDir();
  const all = process.argv.includes('--all');
  const items = CASES.map(([address, city, province, postcode]) => ({ address, city, province, postcode }));
  const results = await verifyContacts({ items, options: { debug: true } });
  const tally = { right: 0, abstained: 0, wrong: 0 };
  results.forEach((r, i) => {
    const [address, city, , , ambiguous, streets] = CASES[i] as Case;
    const expected = new Set(streets.map(([, id]) => String(id)));
    const found = r.territory?.street_id ?? '';
    const candidates = r.candidates ?? [];
    // where several streets fit, the one the postcode or house number chose is right too
    const right =
      expected.has(found) ||
      (ambiguous && r.outcome.includes('STREET_AMBIGUOUS') && candidates.some((c) => expected.has(c.street_id ?? '')));
    const verdict = right ? 'right' : found ? 'wrong' : 'abstained';
    tally[verdict]++;
    if (verdict !== 'right' || all) {
      console.log(`${verdict.padEnd(9)} ${address} | ${city} → ${r.normalized.address} [${r.outcome.join(' ')}] ${candidates.length ? `candidates: ${candidates.slice(0, 5).map((c) => c.street).join('; ')}` : ''} (expected ${streets.map(([name]) => name).join(' | ')})`);
    }
  });
  const n = CASES.length;
  const pct = (x: number) => `${x} (${((100 * x) / n).toFixed(1)}%)`;
  console.log(`n ${n}: right ${pct(tally.right)}, abstained ${pct(tally.abstained)}, wrong ${pct(tally.wrong)}`);
}

await main();
