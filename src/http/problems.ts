/**
 * What is wrong with a request, as a key and its values rather than a sentence: the error body writes it in
 * the answer's language when it is sent (src/http/error-body.ts), so that no English text is fixed at the
 * moment the request is refused, before its language is known. Italian and English are complete; a
 * language without its own text for a problem takes the English one for that text only (docs/conventions.md,
 * Language).
 */
import type { z } from 'zod';

import type { Language } from './language.js';

/** A text with Italian and English always, the other languages where written. */
export type SomeTexts = { it: string; en: string } & Partial<Record<Language, string>>;

/** The text in `language`, else the English one: per string, never per answer. */
export function textIn(texts: SomeTexts, language: Language): string {
  return texts[language] ?? texts.en;
}

export const PROBLEMS = {
  required: { en: 'is required', it: 'è obbligatorio', de: 'ist erforderlich', fr: 'est obligatoire', es: 'es obligatorio', nl: 'is verplicht', pt: 'é obrigatório', sv: 'är obligatoriskt', no: 'er påkrevd', fi: 'on pakollinen', da: 'er påkrævet', is: 'er nauðsynlegt', el: 'είναι υποχρεωτικό' },
  type_string: { en: 'must be a text', it: 'deve essere un testo', de: 'muss ein Text sein', fr: 'doit être un texte', es: 'debe ser un texto', nl: 'moet een tekst zijn', pt: 'deve ser um texto', sv: 'måste vara en text', no: 'må være en tekst', fi: 'on oltava teksti', da: 'skal være en tekst', is: 'verður að vera texti', el: 'πρέπει να είναι κείμενο' },
  type_number: { en: 'must be a number', it: 'deve essere un numero', de: 'muss eine Zahl sein', fr: 'doit être un nombre', es: 'debe ser un número', nl: 'moet een getal zijn', pt: 'deve ser um número', sv: 'måste vara ett tal', no: 'må være et tall', fi: 'on oltava luku', da: 'skal være et tal', is: 'verður að vera tala', el: 'πρέπει να είναι αριθμός' },
  type_integer: { en: 'must be a whole number', it: 'deve essere un numero intero', de: 'muss eine ganze Zahl sein', fr: 'doit être un nombre entier', es: 'debe ser un número entero' },
  type_boolean: { en: 'must be true or false', it: 'deve essere true o false', de: 'muss true oder false sein', fr: 'doit être true ou false', es: 'debe ser true o false', nl: 'moet true of false zijn', pt: 'deve ser true ou false', sv: 'måste vara true eller false', no: 'må være true eller false', fi: 'on oltava true tai false', da: 'skal være true eller false', is: 'verður að vera true eða false', el: 'πρέπει να είναι true ή false' },
  type_object: { en: 'must be an object', it: 'deve essere un oggetto', de: 'muss ein Objekt sein', fr: 'doit être un objet', es: 'debe ser un objeto', nl: 'moet een object zijn', pt: 'deve ser um objeto', sv: 'måste vara ett objekt', no: 'må være et objekt', fi: 'on oltava objekti', da: 'skal være et objekt', is: 'verður að vera hlutur', el: 'πρέπει να είναι αντικείμενο' },
  type_array: { en: 'must be a list', it: 'deve essere un elenco', de: 'muss eine Liste sein', fr: 'doit être une liste', es: 'debe ser una lista', nl: 'moet een lijst zijn', pt: 'deve ser uma lista', sv: 'måste vara en lista', no: 'må være en liste', fi: 'on oltava luettelo', da: 'skal være en liste', is: 'verður að vera listi', el: 'πρέπει να είναι λίστα' },
  invalid: { en: 'is not valid', it: 'non è valido', de: 'ist ungültig', fr: "n'est pas valide", es: 'no es válido', nl: 'is ongeldig', pt: 'não é válido', sv: 'är ogiltigt', no: 'er ugyldig', fi: 'ei kelpaa', da: 'er ugyldig', is: 'er ógilt', el: 'δεν είναι έγκυρο' },
  at_most: { en: 'must be at most {limit}', it: 'deve essere al massimo {limit}', de: 'darf höchstens {limit} sein', fr: 'doit valoir au plus {limit}', es: 'debe ser como máximo {limit}' },
  below: { en: 'must be less than {limit}', it: 'deve essere minore di {limit}', de: 'muss kleiner als {limit} sein', fr: 'doit être inférieur à {limit}', es: 'debe ser menor que {limit}' },
  at_least: { en: 'must be at least {limit}', it: 'deve essere almeno {limit}', de: 'muss mindestens {limit} sein', fr: 'doit valoir au moins {limit}', es: 'debe ser al menos {limit}' },
  above: { en: 'must be more than {limit}', it: 'deve essere maggiore di {limit}', de: 'muss größer als {limit} sein', fr: 'doit être supérieur à {limit}', es: 'debe ser mayor que {limit}' },
  chars_at_most: { en: 'may hold at most {limit} characters', it: 'può contenere al massimo {limit} caratteri', de: 'darf höchstens {limit} Zeichen enthalten', fr: 'peut contenir au plus {limit} caractères', es: 'puede contener como máximo {limit} caracteres' },
  chars_at_least: { en: 'must hold at least {limit} characters', it: 'deve contenere almeno {limit} caratteri', de: 'muss mindestens {limit} Zeichen enthalten', fr: 'doit contenir au moins {limit} caractères', es: 'debe contener al menos {limit} caracteres' },
  not_empty: { en: 'must not be empty', it: 'non può essere vuoto', de: 'darf nicht leer sein', fr: 'ne doit pas être vide', es: 'no puede estar vacío', nl: 'mag niet leeg zijn', pt: 'não pode estar vazio', sv: 'får inte vara tomt', no: 'kan ikke være tomt', fi: 'ei saa olla tyhjä', da: 'må ikke være tomt', is: 'má ekki vera tómt', el: 'δεν μπορεί να είναι κενό' },
  items_at_most: { en: 'may hold at most {limit} elements', it: 'può contenere al massimo {limit} elementi', de: 'darf höchstens {limit} Elemente enthalten', fr: 'peut contenir au plus {limit} éléments', es: 'puede contener como máximo {limit} elementos' },
  items_at_least: { en: 'must hold at least {limit} elements', it: 'deve contenere almeno {limit} elementi', de: 'muss mindestens {limit} Elemente enthalten', fr: 'doit contenir au moins {limit} éléments', es: 'debe contener al menos {limit} elementos' },
  email_form: { en: 'is not an e-mail address', it: 'non è un indirizzo e-mail', de: 'ist keine E-Mail-Adresse', fr: "n'est pas une adresse e-mail", es: 'no es una dirección de correo' },
  uuid_form: { en: 'must be a UUID (8-4-4-4-12 hexadecimal digits)', it: 'deve essere un UUID (8-4-4-4-12 cifre esadecimali)', de: 'muss eine UUID sein (8-4-4-4-12 Hexadezimalziffern)', fr: 'doit être un UUID (8-4-4-4-12 chiffres hexadécimaux)', es: 'debe ser un UUID (8-4-4-4-12 dígitos hexadecimales)' },
  form: { en: 'is not in the expected form', it: 'non è nella forma attesa', de: 'hat nicht die erwartete Form', fr: "n'a pas la forme attendue", es: 'no tiene la forma esperada' },
  one_of: { en: 'must be one of: {values}', it: 'deve essere uno tra: {values}', de: 'muss eines davon sein: {values}', fr: "doit être l'un de : {values}", es: 'debe ser uno de: {values}', nl: 'moet een van deze zijn: {values}', pt: 'deve ser um de: {values}', sv: 'måste vara något av: {values}', no: 'må være en av: {values}', fi: 'on oltava jokin näistä: {values}', da: 'skal være en af: {values}', is: 'verður að vera eitt af: {values}', el: 'πρέπει να είναι ένα από: {values}' },
  unknown_keys: { en: 'unknown fields: {keys}', it: 'campi sconosciuti: {keys}', de: 'unbekannte Felder: {keys}', fr: 'champs inconnus : {keys}', es: 'campos desconocidos: {keys}' },
  empty_list: { en: 'is empty', it: 'è vuoto', de: 'ist leer', fr: 'est vide', es: 'está vacío', nl: 'is leeg', pt: 'está vazio', sv: 'är tom', no: 'er tom', fi: 'on tyhjä', da: 'er tom', is: 'er tómur', el: 'είναι κενό' },
  body_object: { en: 'must be a JSON object', it: 'deve essere un oggetto JSON', de: 'muss ein JSON-Objekt sein', fr: 'doit être un objet JSON', es: 'debe ser un objeto JSON', nl: 'moet een JSON-object zijn', pt: 'deve ser um objeto JSON', sv: 'måste vara ett JSON-objekt', no: 'må være et JSON-objekt', fi: 'on oltava JSON-objekti', da: 'skal være et JSON-objekt', is: 'verður að vera JSON-hlutur', el: 'πρέπει να είναι αντικείμενο JSON' },
  string_too_long: { en: 'is longer than {limit} characters ({length})', it: 'supera i {limit} caratteri ({length})', de: 'ist länger als {limit} Zeichen ({length})', fr: 'dépasse {limit} caractères ({length})', es: 'supera los {limit} caracteres ({length})' },
  key_too_long: { en: 'has a key longer than {limit} characters', it: 'ha un nome di campo di oltre {limit} caratteri', de: 'hat einen Schlüssel mit mehr als {limit} Zeichen', fr: 'a une clé de plus de {limit} caractères', es: 'tiene una clave de más de {limit} caracteres' },
  too_deep: { en: 'is nested deeper than {limit} levels', it: 'è annidato oltre {limit} livelli', de: 'ist tiefer als {limit} Ebenen verschachtelt', fr: 'est imbriqué sur plus de {limit} niveaux', es: 'está anidado a más de {limit} niveles' },
  language: { en: 'must be one of {values}', it: 'deve essere una tra {values}', de: 'muss eine von {values} sein', fr: "doit être l'une de {values}", es: 'debe ser una de {values}' },
  job_required: { en: 'the job code is required', it: 'serve il codice del lavoro', de: 'der Auftragscode ist erforderlich', fr: 'le code de la tâche est requis', es: 'se requiere el código del trabajo' },
  json_or_csv: { en: 'must be json or csv', it: 'deve essere json o csv', de: 'muss json oder csv sein', fr: 'doit être json ou csv', es: 'debe ser json o csv' },
  required_for_select: { en: 'is required to select', it: 'è obbligatorio per selezionare', de: 'ist für die Auswahl erforderlich', fr: 'est requis pour sélectionner', es: 'es obligatorio para seleccionar' },
  not_suggested: { en: 'is not among the streets suggested in this session', it: 'non è tra le vie suggerite in questa sessione', de: 'ist nicht unter den in dieser Sitzung vorgeschlagenen Straßen', fr: 'ne fait pas partie des rues proposées dans cette session', es: 'no está entre las calles sugeridas en esta sesión' },
  records_at_least_one: { en: 'must hold at least one record', it: 'deve contenere almeno un’anagrafica', de: 'muss mindestens einen Datensatz enthalten', fr: 'doit contenir au moins un enregistrement', es: 'debe contener al menos un registro' },
  phone_format: { en: 'must be national or international (nazionale, internazionale)', it: 'deve essere nazionale o internazionale', de: 'muss national oder international sein (nazionale, internazionale)', fr: 'doit être national ou international (nazionale, internazionale)', es: 'debe ser national o international (nazionale, internazionale)' },
  tax_code_action: { en: 'must be generate, validate, extract or compare (genera, valida, estrai, confronta)', it: 'deve essere genera, valida, estrai o confronta', de: 'muss generate, validate, extract oder compare sein (genera, valida, estrai, confronta)', fr: 'doit être generate, validate, extract ou compare (genera, valida, estrai, confronta)', es: 'debe ser generate, validate, extract o compare (genera, valida, estrai, confronta)' },
  // whole requests refused (bad_request's {detail})
  proto_keys: { en: 'the keys __proto__ and constructor.prototype are refused', it: 'le chiavi __proto__ e constructor.prototype sono rifiutate', de: 'die Schlüssel __proto__ und constructor.prototype werden abgelehnt', fr: 'les clés __proto__ et constructor.prototype sont refusées', es: 'las claves __proto__ y constructor.prototype se rechazan' },
  no_async: { en: '{endpoint} does not take async', it: '{endpoint} non accetta richieste asincrone (async)', de: '{endpoint} nimmt keine asynchronen Anfragen an (async)', fr: '{endpoint} n\'accepte pas les requêtes asynchrones (async)', es: '{endpoint} no acepta solicitudes asíncronas (async)' },
  media_type: { en: 'the body must be JSON (Content-Type: application/json)', it: 'il corpo deve essere JSON (Content-Type: application/json)', de: 'der Inhalt muss JSON sein (Content-Type: application/json)', fr: 'le corps doit être du JSON (Content-Type: application/json)', es: 'el cuerpo debe ser JSON (Content-Type: application/json)', nl: 'de inhoud moet JSON zijn (Content-Type: application/json)', pt: 'o corpo deve ser JSON (Content-Type: application/json)', sv: 'innehållet måste vara JSON (Content-Type: application/json)', no: 'innholdet må være JSON (Content-Type: application/json)', fi: 'sisällön on oltava JSONia (Content-Type: application/json)', da: 'indholdet skal være JSON (Content-Type: application/json)', is: 'meginmálið verður að vera JSON (Content-Type: application/json)', el: 'το σώμα πρέπει να είναι JSON (Content-Type: application/json)' },
  unreadable: { en: 'the request cannot be read', it: 'la richiesta non è leggibile', de: 'die Anfrage ist nicht lesbar', fr: 'la requête est illisible', es: 'la solicitud no se puede leer', nl: 'het verzoek is niet leesbaar', pt: 'o pedido não pode ser lido', sv: 'begäran kan inte läsas', no: 'forespørselen kan ikke leses', fi: 'pyyntöä ei voi lukea', da: 'anmodningen kan ikke læses', is: 'ekki er hægt að lesa beiðnina', el: 'το αίτημα δεν μπορεί να διαβαστεί' },
  records_unreadable: { en: 'the records cannot be read: {detail}', it: 'le anagrafiche non sono leggibili', de: 'die Datensätze sind nicht lesbar', fr: 'les enregistrements sont illisibles', es: 'los registros no se pueden leer' },
  job_not_extendable: { en: 'job {job} is {state}: new records can join only a completed one-list job', it: 'il lavoro {job} è {state}: nuove anagrafiche si aggiungono solo a un lavoro completato su una lista', de: 'der Auftrag {job} ist {state}: neue Datensätze kommen nur zu einem abgeschlossenen Auftrag mit einer Liste hinzu', fr: 'la tâche {job} est {state} : de nouveaux enregistrements ne rejoignent qu’une tâche terminée sur une liste', es: 'el trabajo {job} está {state}: solo se añaden registros nuevos a un trabajo completado de una lista' },
  two_list_job: { en: 'a two-list job', it: 'un lavoro su due liste', de: 'ein Auftrag mit zwei Listen', fr: 'une tâche sur deux listes', es: 'un trabajo de dos listas' },
  reference_with_job: { en: 'reference cannot be combined with job (incremental matching works on a one-list job)', it: 'riferimento non si combina con lavoro (il confronto incrementale lavora su un lavoro a una lista)', de: 'reference lässt sich nicht mit job kombinieren (der inkrementelle Abgleich arbeitet mit einem Auftrag mit einer Liste)', fr: 'reference ne se combine pas avec job (le rapprochement incrémental porte sur une tâche à une liste)', es: 'reference no se combina con job (la comparación incremental trabaja sobre un trabajo de una lista)' },
  incremental_async: { en: 'incremental matching is synchronous (up to 500 new records)', it: 'il confronto incrementale è sincrono (fino a 500 nuove anagrafiche)', de: 'der inkrementelle Abgleich ist synchron (bis zu 500 neue Datensätze)', fr: 'le rapprochement incrémental est synchrone (jusqu’à 500 nouveaux enregistrements)', es: 'la comparación incremental es síncrona (hasta 500 registros nuevos)' },
  // the 402 after an auto top-up stopped by its monthly cap
  topup_cap: { en: 'auto top-up could not buy a pack: its monthly cap of {cap} € is reached', it: 'l’auto-ricarica non ha potuto acquistare un pacchetto: il tetto mensile di {cap} € è raggiunto', de: 'die automatische Aufladung konnte kein Paket kaufen: die Monatsgrenze von {cap} € ist erreicht', fr: 'la recharge automatique n’a pas pu acheter de pack : le plafond mensuel de {cap} € est atteint', es: 'la recarga automática no pudo comprar un paquete: se alcanzó el tope mensual de {cap} €' },
} as const satisfies Record<string, SomeTexts>;

export type ProblemKey = keyof typeof PROBLEMS;

/** A problem with its values: written in the answer's language when the error is sent. */
export interface Problem {
  problem: ProblemKey;
  values?: Readonly<Record<string, string | number | Problem>>;
}

export function problem(key: ProblemKey, values?: Readonly<Record<string, string | number | Problem>>): Problem {
  return values === undefined ? { problem: key } : { problem: key, values };
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as { problem?: unknown }).problem === 'string' && Object.hasOwn(PROBLEMS, (value as { problem: string }).problem);
}

/**
 * Words a message names as values (the class of a rate limit, a counter, the mode of a call): written in
 * the answer's language like the sentence around them, not as the English identifiers they are in `details`.
 */
export const WORDS = {
  single: { en: 'single', it: 'singole', de: 'Einzel', fr: 'unitaires', es: 'individuales' },
  batch: { en: 'batch', it: 'a lotti', de: 'Stapel', fr: 'par lots', es: 'por lotes' },
  autocomplete: { en: 'autocomplete', it: 'di completamento indirizzi', de: 'Autovervollständigungs', fr: "d'autocomplétion", es: 'de autocompletado' },
  contact: { en: 'contact', it: 'le verifiche di contatto', de: 'Kontakt', fr: 'contact', es: 'de contactos' },
  dedupe: { en: 'dedupe', it: 'la deduplicazione', de: 'Deduplizierungs', fr: 'déduplication', es: 'de deduplicación' },
  light: { en: 'light', it: 'le operazioni leggere', de: 'Leicht', fr: 'opérations légères', es: 'de operaciones ligeras' },
  synchronous: { en: 'synchronous', it: 'sincrona', de: 'synchronen', fr: 'synchrone', es: 'síncrona' },
  asynchronous: { en: 'asynchronous', it: 'asincrona', de: 'asynchronen', fr: 'asynchrone', es: 'asíncrona' },
  // job states named in a message
  queued: { en: 'queued', it: 'in coda', de: 'in der Warteschlange', fr: 'en attente', es: 'en cola' },
  running: { en: 'running', it: 'in corso', de: 'laufend', fr: 'en cours', es: 'en curso' },
  failed: { en: 'failed', it: 'fallito', de: 'fehlgeschlagen', fr: 'échoué', es: 'fallido' },
  cancelled: { en: 'cancelled', it: 'annullato', de: 'abgebrochen', fr: 'annulé', es: 'cancelado' },
} as const satisfies Record<string, SomeTexts>;

/** The word of `value` in `language` where it is one of `WORDS`, else the value as it is. */
export function wordIn(value: string, language: Language): string {
  return Object.hasOwn(WORDS, value) ? textIn((WORDS as Record<string, SomeTexts>)[value] as SomeTexts, language) : value;
}

type ZodIssue = z.core.$ZodIssue;

/** A zod issue as a problem of ours, from its code and data (zod's English message is never shown). */
export function problemOfIssue(issue: ZodIssue, input: unknown): Problem {
  // a schema's own refusal names its problem by key (`message: 'type_boolean'`)
  if (Object.hasOwn(PROBLEMS, issue.message) && !(issue.code === 'invalid_type' && input === undefined)) return problem(issue.message as ProblemKey);
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return problem('required');
      const expected = `type_${issue.expected === 'int' ? 'integer' : issue.expected}`;
      return expected in PROBLEMS ? problem(expected as ProblemKey) : problem('invalid');
    }
    case 'too_big': {
      const limit = Number(issue.maximum);
      if (issue.origin === 'string') return problem('chars_at_most', { limit });
      if (issue.origin === 'array' || issue.origin === 'set') return problem('items_at_most', { limit });
      return problem(issue.inclusive === false ? 'below' : 'at_most', { limit });
    }
    case 'too_small': {
      const limit = Number(issue.minimum);
      if (issue.origin === 'string') return limit <= 1 ? problem('not_empty') : problem('chars_at_least', { limit });
      if (issue.origin === 'array' || issue.origin === 'set') return problem('items_at_least', { limit });
      return problem(issue.inclusive === false ? 'above' : 'at_least', { limit });
    }
    case 'invalid_format':
      if (issue.format === 'email') return problem('email_form');
      if (issue.format === 'uuid' || issue.format === 'guid') return problem('uuid_form');
      return problem('form');
    case 'invalid_value':
      return problem('one_of', { values: issue.values.map(String).join(', ') });
    case 'unrecognized_keys':
      return problem('unknown_keys', { keys: issue.keys.join(', ') });
    case 'invalid_union': {
      // a value none of the accepted forms takes: what the first form expected (a phone: a text)
      const first = issue.errors[0]?.[0];
      return first && first.code !== 'invalid_union' ? problemOfIssue(first, input) : problem('invalid');
    }
    default:
      return problem('invalid');
  }
}
