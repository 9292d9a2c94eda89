import type { Texts } from './language.js';
import { problem, type Problem, type ProblemKey } from './problems.js';

/** Stable error codes of the error body, with their HTTP status. */
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  token_invalid: 401,
  token_expired: 401,
  token_revoked: 401,
  payment_required: 402,
  account_required: 403,
  token_scope: 403,
  not_found: 404,
  job_not_found: 404,
  group_not_found: 404,
  method_not_allowed: 405,
  session_country: 409,
  selection_required: 409,
  too_many_items: 413,
  payload_too_large: 413,
  rate_limited: 429,
  session_quota: 429,
  session_budget: 429,
  select_cap: 429,
  too_many_jobs: 429,
  internal_error: 500,
  overloaded: 503,
  storage_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error the service answers on purpose: the one error body shape for every status. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    /** Values of the message: a `Problem` is written in the answer's language; `also`, a problem, follows the message. */
    readonly params: Record<string, string | number | Problem> = {},
    readonly details: unknown = null,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
    this.status = ERROR_STATUS[code];
  }
}

export interface ValidationIssue {
  /** Field path in the request as the client sent it, e.g. `items.3.tax_code`. */
  field: string;
  /** Written in the answer's language when the error is sent (src/http/error-body.ts). */
  problem: Problem;
}

/** A 400 naming every field refused, the first in the message. */
export function invalidFields(issues: ValidationIssue[]): ApiError {
  const first = issues[0] ?? { field: '(body)', problem: problem('invalid') };
  return new ApiError('validation_failed', { field: first.field, problem: first.problem }, issues);
}

/** A 400 for one field. */
export function invalidField(field: string, key: ProblemKey, values?: Record<string, string | number | Problem>): ApiError {
  return invalidFields([{ field, problem: problem(key, values) }]);
}

/** A 400 for the request as a whole (`bad_request`), its detail written in the answer's language. */
export function badRequest(key: ProblemKey, values?: Record<string, string | number | Problem>): ApiError {
  return new ApiError('bad_request', { detail: problem(key, values) });
}

/** Error messages in every language; `{name}` placeholders are filled from the error's params. */
export const ERROR_MESSAGES: Record<ErrorCode, Texts> = {
  bad_request: {
    en: 'Bad request: {detail}', it: 'Richiesta non valida: {detail}', de: 'Ungültige Anfrage: {detail}',
    fr: 'Requête invalide : {detail}', es: 'Solicitud no válida: {detail}', nl: 'Ongeldig verzoek: {detail}',
    pt: 'Pedido inválido: {detail}', sv: 'Ogiltig begäran: {detail}', no: 'Ugyldig forespørsel: {detail}',
    fi: 'Virheellinen pyyntö: {detail}', da: 'Ugyldig anmodning: {detail}', is: 'Ógild beiðni: {detail}',
    el: 'Μη έγκυρο αίτημα: {detail}',
  },
  invalid_json: {
    en: 'The body is not valid JSON', it: 'Il corpo della richiesta non è JSON valido', de: 'Der Inhalt ist kein gültiges JSON',
    fr: "Le corps n'est pas du JSON valide", es: 'El cuerpo no es JSON válido', nl: 'De body is geen geldige JSON',
    pt: 'O corpo não é JSON válido', sv: 'Innehållet är inte giltig JSON', no: 'Innholdet er ikke gyldig JSON',
    fi: 'Runko ei ole kelvollista JSONia', da: 'Indholdet er ikke gyldig JSON', is: 'Meginmálið er ekki gilt JSON',
    el: 'Το σώμα δεν είναι έγκυρο JSON',
  },
  validation_failed: {
    en: 'Invalid field {field}: {problem}', it: 'Campo {field} non valido: {problem}', de: 'Ungültiges Feld {field}: {problem}',
    fr: 'Champ {field} invalide : {problem}', es: 'Campo {field} no válido: {problem}', nl: 'Ongeldig veld {field}: {problem}',
    pt: 'Campo {field} inválido: {problem}', sv: 'Ogiltigt fält {field}: {problem}', no: 'Ugyldig felt {field}: {problem}',
    fi: 'Virheellinen kenttä {field}: {problem}', da: 'Ugyldigt felt {field}: {problem}', is: 'Ógilt svæði {field}: {problem}',
    el: 'Μη έγκυρο πεδίο {field}: {problem}',
  },
  unauthorized: {
    en: 'Authorization: Bearer <token> is required', it: 'Serve Authorization: Bearer <token>', de: 'Authorization: Bearer <token> ist erforderlich',
    fr: 'Authorization: Bearer <token> est requis', es: 'Se requiere Authorization: Bearer <token>', nl: 'Authorization: Bearer <token> is vereist',
    pt: 'É necessário Authorization: Bearer <token>', sv: 'Authorization: Bearer <token> krävs', no: 'Authorization: Bearer <token> kreves',
    fi: 'Authorization: Bearer <token> vaaditaan', da: 'Authorization: Bearer <token> er påkrævet', is: 'Authorization: Bearer <token> er krafist',
    el: 'Απαιτείται Authorization: Bearer <token>',
  },
  token_invalid: {
    en: 'The token is not valid', it: 'Il token non è valido', de: 'Das Token ist ungültig', fr: "Le jeton n'est pas valide",
    es: 'El token no es válido', nl: 'Het token is ongeldig', pt: 'O token não é válido', sv: 'Token är ogiltig',
    no: 'Tokenet er ugyldig', fi: 'Tunniste ei kelpaa', da: 'Tokenet er ugyldigt', is: 'Tókinn er ógildur', el: 'Το διακριτικό δεν είναι έγκυρο',
  },
  token_expired: {
    en: 'The token expired on {expiry}', it: 'Il token è scaduto il {expiry}', de: 'Das Token ist am {expiry} abgelaufen',
    fr: 'Le jeton a expiré le {expiry}', es: 'El token caducó el {expiry}', nl: 'Het token is verlopen op {expiry}',
    pt: 'O token expirou em {expiry}', sv: 'Token gick ut {expiry}', no: 'Tokenet utløp {expiry}', fi: 'Tunniste vanheni {expiry}',
    da: 'Tokenet udløb {expiry}', is: 'Tókinn rann út {expiry}', el: 'Το διακριτικό έληξε στις {expiry}',
  },
  token_revoked: {
    en: 'The token was revoked', it: 'Il token è stato revocato', de: 'Das Token wurde widerrufen', fr: 'Le jeton a été révoqué',
    es: 'El token fue revocado', nl: 'Het token is ingetrokken', pt: 'O token foi revogado', sv: 'Token har återkallats',
    no: 'Tokenet er tilbakekalt', fi: 'Tunniste on peruttu', da: 'Tokenet er tilbagekaldt', is: 'Tókinn var afturkallaður', el: 'Το διακριτικό ανακλήθηκε',
  },
  payment_required: {
    en: 'Not enough {counter} credit: {needed} needed, {available} available; nothing was processed',
    it: 'Credito insufficiente per {counter}: necessarie {needed}, disponibili {available}; nulla è stato elaborato',
    de: 'Nicht genug {counter}-Guthaben: {needed} nötig, {available} verfügbar; nichts wurde verarbeitet',
    fr: 'Crédit {counter} insuffisant : {needed} nécessaires, {available} disponibles ; rien n’a été traité',
    es: 'Crédito {counter} insuficiente: se necesitan {needed}, hay {available}; no se procesó nada',
    nl: 'Onvoldoende {counter}-tegoed: {needed} nodig, {available} beschikbaar; niets verwerkt',
    pt: 'Crédito {counter} insuficiente: {needed} necessárias, {available} disponíveis; nada foi processado',
    sv: 'Otillräcklig {counter}-kredit: {needed} behövs, {available} finns; inget behandlades',
    no: 'Ikke nok {counter}-kreditt: {needed} trengs, {available} tilgjengelig; ingenting ble behandlet',
    fi: 'Ei tarpeeksi {counter}-saldoa: tarvitaan {needed}, saatavilla {available}; mitään ei käsitelty',
    da: 'Ikke nok {counter}-kredit: {needed} kræves, {available} til rådighed; intet blev behandlet',
    is: 'Ekki næg {counter}-inneign: {needed} þarf, {available} til; ekkert var unnið',
    el: 'Ανεπαρκής πίστωση {counter}: χρειάζονται {needed}, διαθέσιμες {available}· δεν επεξεργάστηκε τίποτα',
  },
  token_scope: {
    en: 'This token is for address autocomplete only ({path})', it: 'Questo token serve solo all’autocompletamento degli indirizzi ({path})',
    de: 'Dieses Token gilt nur für die Adress-Autovervollständigung ({path})', fr: 'Ce jeton ne sert qu’à l’autocomplétion des adresses ({path})',
    es: 'Este token es solo para autocompletar direcciones ({path})', nl: 'Dit token is alleen voor het aanvullen van adressen ({path})',
    pt: 'Este token serve apenas para autocompletar endereços ({path})', sv: 'Denna token gäller bara autokomplettering av adresser ({path})',
    no: 'Dette tokenet er bare for autofullføring av adresser ({path})', fi: 'Tämä tunniste on vain osoitteiden täydennykseen ({path})',
    da: 'Dette token er kun til autoudfyldning af adresser ({path})', is: 'Þessi tóki er aðeins fyrir sjálfvirka útfyllingu heimilisfanga ({path})',
    el: 'Αυτό το διακριτικό είναι μόνο για αυτόματη συμπλήρωση διευθύνσεων ({path})',
  },
  select_cap: {
    en: 'This token has used its {max} charged selects for today; retry in {retry_after} s', it: 'Questo token ha usato le sue {max} selezioni a pagamento di oggi; riprovare tra {retry_after} s',
    de: 'Dieses Token hat seine {max} kostenpflichtigen Auswahlen für heute verbraucht; erneut in {retry_after} s', fr: 'Ce jeton a utilisé ses {max} sélections payantes du jour ; réessayez dans {retry_after} s',
    es: 'Este token ha usado sus {max} selecciones de pago de hoy; reintente en {retry_after} s', nl: 'Dit token heeft zijn {max} betaalde selecties van vandaag gebruikt; opnieuw over {retry_after} s',
    pt: 'Este token usou as suas {max} seleções pagas de hoje; tente em {retry_after} s', sv: 'Denna token har använt dagens {max} debiterade val; försök igen om {retry_after} s',
    no: 'Tokenet har brukt dagens {max} betalte valg; prøv igjen om {retry_after} s', fi: 'Tunniste on käyttänyt tämän päivän {max} maksullista valintaa; yritä {retry_after} s kuluttua',
    da: 'Tokenet har brugt dagens {max} betalte valg; prøv igen om {retry_after} s', is: 'Tókinn hefur notað {max} gjaldskyld val dagsins; reynið aftur eftir {retry_after} s',
    el: 'Το διακριτικό εξάντλησε τις {max} χρεωμένες επιλογές της ημέρας· δοκιμάστε σε {retry_after} δ',
  },
  account_required: {
    en: 'This call needs a token that belongs to an account', it: 'Questa chiamata richiede un token associato a un account',
    de: 'Dieser Aufruf erfordert ein Token eines Kontos', fr: 'Cet appel nécessite un jeton lié à un compte',
    es: 'Esta llamada requiere un token de una cuenta', nl: 'Deze aanroep vereist een token van een account',
    pt: 'Esta chamada requer um token de uma conta', sv: 'Anropet kräver en token som hör till ett konto',
    no: 'Kallet krever et token som tilhører en konto', fi: 'Kutsu vaatii tiliin kuuluvan tunnisteen',
    da: 'Kaldet kræver et token, der tilhører en konto', is: 'Kallið krefst tóka sem tilheyrir reikningi',
    el: 'Η κλήση απαιτεί διακριτικό που ανήκει σε λογαριασμό',
  },
  not_found: {
    en: 'Not found: {what}', it: 'Non trovato: {what}', de: 'Nicht gefunden: {what}', fr: 'Introuvable : {what}',
    es: 'No encontrado: {what}', nl: 'Niet gevonden: {what}', pt: 'Não encontrado: {what}', sv: 'Hittades inte: {what}',
    no: 'Ikke funnet: {what}', fi: 'Ei löytynyt: {what}', da: 'Ikke fundet: {what}', is: 'Fannst ekki: {what}', el: 'Δεν βρέθηκε: {what}',
  },
  job_not_found: {
    en: 'No job {job} for this account', it: 'Nessun lavoro {job} per questo account', de: 'Kein Auftrag {job} für dieses Konto',
    fr: 'Aucune tâche {job} pour ce compte', es: 'No hay trabajo {job} para esta cuenta', nl: 'Geen taak {job} voor dit account',
    pt: 'Nenhum trabalho {job} para esta conta', sv: 'Inget jobb {job} för detta konto', no: 'Ingen jobb {job} for denne kontoen',
    fi: 'Ei työtä {job} tälle tilille', da: 'Intet job {job} for denne konto', is: 'Ekkert verk {job} fyrir þennan reikning',
    el: 'Καμία εργασία {job} για αυτόν τον λογαριασμό',
  },
  group_not_found: {
    en: 'No group {group} in job {job}', it: 'Nessun gruppo {group} nel lavoro {job}', de: 'Keine Gruppe {group} im Auftrag {job}',
    fr: 'Aucun groupe {group} dans la tâche {job}', es: 'No hay grupo {group} en el trabajo {job}', nl: 'Geen groep {group} in taak {job}',
    pt: 'Nenhum grupo {group} no trabalho {job}', sv: 'Ingen grupp {group} i jobb {job}', no: 'Ingen gruppe {group} i jobb {job}',
    fi: 'Ei ryhmää {group} työssä {job}', da: 'Ingen gruppe {group} i job {job}', is: 'Enginn hópur {group} í verki {job}',
    el: 'Καμία ομάδα {group} στην εργασία {job}',
  },
  method_not_allowed: {
    en: 'Method {method} is not allowed on {path}; allowed: {allowed}', it: 'Metodo {method} non ammesso su {path}; ammessi: {allowed}',
    de: 'Methode {method} ist auf {path} nicht erlaubt; erlaubt: {allowed}', fr: 'Méthode {method} non autorisée sur {path} ; autorisées : {allowed}',
    es: 'Método {method} no permitido en {path}; permitidos: {allowed}', nl: 'Methode {method} niet toegestaan op {path}; toegestaan: {allowed}',
    pt: 'Método {method} não permitido em {path}; permitidos: {allowed}', sv: 'Metoden {method} är inte tillåten på {path}; tillåtna: {allowed}',
    no: 'Metoden {method} er ikke tillatt på {path}; tillatt: {allowed}', fi: 'Menetelmä {method} ei ole sallittu polussa {path}; sallitut: {allowed}',
    da: 'Metoden {method} er ikke tilladt på {path}; tilladt: {allowed}', is: 'Aðferðin {method} er ekki leyfð á {path}; leyfðar: {allowed}',
    el: 'Η μέθοδος {method} δεν επιτρέπεται στο {path}· επιτρέπονται: {allowed}',
  },
  session_country: {
    en: 'This session belongs to another country: start a new session', it: 'La sessione appartiene a un altro paese: serve una nuova sessione',
    de: 'Diese Sitzung gehört zu einem anderen Land: neue Sitzung nötig', fr: 'Cette session appartient à un autre pays : nouvelle session requise',
    es: 'Esta sesión pertenece a otro país: se requiere una nueva', nl: 'Deze sessie hoort bij een ander land: start een nieuwe sessie',
    pt: 'Esta sessão pertence a outro país: inicie uma nova', sv: 'Sessionen tillhör ett annat land: starta en ny session',
    no: 'Økten tilhører et annet land: start en ny økt', fi: 'Istunto kuuluu toiseen maahan: aloita uusi istunto',
    da: 'Sessionen tilhører et andet land: start en ny session', is: 'Lotan tilheyrir öðru landi: hefjið nýja lotu',
    el: 'Η συνεδρία ανήκει σε άλλη χώρα: ξεκινήστε νέα συνεδρία',
  },
  selection_required: {
    en: 'Select the street in this session first', it: 'Selezionare prima la via in questa sessione', de: 'Zuerst die Straße in dieser Sitzung auswählen',
    fr: "Sélectionnez d'abord la rue dans cette session", es: 'Seleccione primero la calle en esta sesión', nl: 'Selecteer eerst de straat in deze sessie',
    pt: 'Selecione primeiro a rua nesta sessão', sv: 'Välj gatan i denna session först', no: 'Velg gaten i denne økten først',
    fi: 'Valitse ensin katu tässä istunnossa', da: 'Vælg først gaden i denne session', is: 'Veljið fyrst götuna í þessari lotu',
    el: 'Επιλέξτε πρώτα την οδό σε αυτή τη συνεδρία',
  },
  too_many_items: {
    en: '{received} items sent; {endpoint} takes at most {cap} per {mode} call',
    it: '{received} elementi inviati; {endpoint} ne accetta al massimo {cap} per chiamata {mode}',
    de: '{received} Elemente gesendet; {endpoint} nimmt höchstens {cap} pro {mode}-Aufruf',
    fr: '{received} éléments envoyés ; {endpoint} en accepte au plus {cap} par appel {mode}',
    es: '{received} elementos enviados; {endpoint} acepta como máximo {cap} por llamada {mode}',
    nl: '{received} items verzonden; {endpoint} neemt er hoogstens {cap} per {mode} aanroep',
    pt: '{received} itens enviados; {endpoint} aceita no máximo {cap} por chamada {mode}',
    sv: '{received} poster skickade; {endpoint} tar högst {cap} per {mode} anrop',
    no: '{received} elementer sendt; {endpoint} tar høyst {cap} per {mode} kall',
    fi: '{received} kohdetta lähetetty; {endpoint} ottaa enintään {cap} per {mode}-kutsu',
    da: '{received} elementer sendt; {endpoint} tager højst {cap} pr. {mode} kald',
    is: '{received} atriði send; {endpoint} tekur mest {cap} í hverju {mode} kalli',
    el: 'Στάλθηκαν {received} στοιχεία· το {endpoint} δέχεται έως {cap} ανά κλήση {mode}',
  },
  payload_too_large: {
    en: 'The request body is too large', it: 'Il corpo della richiesta è troppo grande', de: 'Der Inhalt ist zu groß',
    fr: 'Le corps de la requête est trop volumineux', es: 'El cuerpo de la solicitud es demasiado grande', nl: 'De body is te groot',
    pt: 'O corpo do pedido é demasiado grande', sv: 'Innehållet är för stort', no: 'Innholdet er for stort', fi: 'Runko on liian suuri',
    da: 'Indholdet er for stort', is: 'Meginmálið er of stórt', el: 'Το σώμα του αιτήματος είναι πολύ μεγάλο',
  },
  rate_limited: {
    en: 'Too many {class} requests: at most {max} a minute; retry in {retry_after} s',
    it: 'Troppe richieste {class}: al massimo {max} al minuto; riprovare tra {retry_after} s',
    de: 'Zu viele {class}-Anfragen: höchstens {max} pro Minute; erneut in {retry_after} s',
    fr: 'Trop de requêtes {class} : au plus {max} par minute ; réessayez dans {retry_after} s',
    es: 'Demasiadas solicitudes {class}: máximo {max} por minuto; reintente en {retry_after} s',
    nl: 'Te veel {class}-verzoeken: hoogstens {max} per minuut; opnieuw over {retry_after} s',
    pt: 'Demasiados pedidos {class}: no máximo {max} por minuto; tente em {retry_after} s',
    sv: 'För många {class}-anrop: högst {max} per minut; försök igen om {retry_after} s',
    no: 'For mange {class}-forespørsler: høyst {max} i minuttet; prøv igjen om {retry_after} s',
    fi: 'Liian monta {class}-pyyntöä: enintään {max} minuutissa; yritä {retry_after} s kuluttua',
    da: 'For mange {class}-anmodninger: højst {max} i minuttet; prøv igen om {retry_after} s',
    is: 'Of margar {class}-beiðnir: mest {max} á mínútu; reynið aftur eftir {retry_after} s',
    el: 'Πάρα πολλά αιτήματα {class}: έως {max} το λεπτό· δοκιμάστε σε {retry_after} δ',
  },
  session_quota: {
    en: 'This session has used its 30 calls: start a new session', it: 'La sessione ha esaurito le sue 30 chiamate: avviarne una nuova',
    de: 'Diese Sitzung hat ihre 30 Aufrufe verbraucht', fr: 'Cette session a utilisé ses 30 appels', es: 'Esta sesión ha agotado sus 30 llamadas',
    nl: 'Deze sessie heeft haar 30 aanroepen gebruikt', pt: 'Esta sessão esgotou as 30 chamadas', sv: 'Sessionen har använt sina 30 anrop',
    no: 'Økten har brukt sine 30 kall', fi: 'Istunto on käyttänyt 30 kutsuaan', da: 'Sessionen har brugt sine 30 kald',
    is: 'Lotan hefur notað 30 köll sín', el: 'Η συνεδρία εξάντλησε τις 30 κλήσεις της',
  },
  session_budget: {
    en: 'Daily free autocomplete sessions used up; retry in {retry_after} s', it: 'Sessioni gratuite giornaliere esaurite; riprovare tra {retry_after} s',
    de: 'Tägliche freie Sitzungen aufgebraucht; erneut in {retry_after} s', fr: 'Sessions gratuites du jour épuisées ; réessayez dans {retry_after} s',
    es: 'Sesiones gratuitas diarias agotadas; reintente en {retry_after} s', nl: 'Dagelijkse gratis sessies op; opnieuw over {retry_after} s',
    pt: 'Sessões gratuitas diárias esgotadas; tente em {retry_after} s', sv: 'Dagens gratis sessioner slut; försök om {retry_after} s',
    no: 'Dagens gratis økter brukt opp; prøv om {retry_after} s', fi: 'Päivän ilmaiset istunnot käytetty; yritä {retry_after} s kuluttua',
    da: 'Dagens gratis sessioner brugt; prøv om {retry_after} s', is: 'Ókeypis lotur dagsins búnar; reynið eftir {retry_after} s',
    el: 'Οι δωρεάν ημερήσιες συνεδρίες εξαντλήθηκαν· δοκιμάστε σε {retry_after} δ',
  },
  too_many_jobs: {
    en: '{active} asynchronous jobs of this account are queued or running, the most allowed; retry in {retry_after} s',
    it: "{active} lavori asincroni dell'account sono in coda o in corso, il massimo ammesso; riprovare tra {retry_after} s",
    de: '{active} asynchrone Aufträge dieses Kontos warten oder laufen, das Maximum; erneut in {retry_after} s',
    fr: '{active} tâches asynchrones de ce compte sont en attente ou en cours, le maximum ; réessayez dans {retry_after} s',
    es: '{active} trabajos asíncronos de esta cuenta están en cola o en curso, el máximo; reintente en {retry_after} s',
    nl: '{active} asynchrone taken van dit account wachten of lopen, het maximum; opnieuw over {retry_after} s',
    pt: '{active} trabalhos assíncronos desta conta estão em fila ou em curso, o máximo; tente em {retry_after} s',
    sv: '{active} asynkrona jobb för kontot väntar eller körs, det högsta tillåtna; försök om {retry_after} s',
    no: '{active} asynkrone jobber for kontoen venter eller kjører, det høyeste tillatte; prøv om {retry_after} s',
    fi: '{active} tilin asynkronista työtä on jonossa tai käynnissä, enimmäismäärä; yritä {retry_after} s kuluttua',
    da: '{active} asynkrone job for kontoen venter eller kører, det højeste tilladte; prøv om {retry_after} s',
    is: '{active} ósamstillt verk reikningsins bíða eða eru í gangi, hámarkið; reynið eftir {retry_after} s',
    el: '{active} ασύγχρονες εργασίες του λογαριασμού αναμένουν ή εκτελούνται, το μέγιστο· δοκιμάστε σε {retry_after} δ',
  },
  overloaded: {
    en: 'The service is overloaded; nothing was processed or charged; retry in {retry_after} s',
    it: 'Il servizio è sovraccarico; nulla è stato elaborato né addebitato; riprovare tra {retry_after} s',
    de: 'Der Dienst ist überlastet; nichts wurde verarbeitet oder berechnet; erneut in {retry_after} s',
    fr: "Le service est surchargé ; rien n'a été traité ni facturé ; réessayez dans {retry_after} s",
    es: 'El servicio está sobrecargado; no se procesó ni cobró nada; reintente en {retry_after} s',
    nl: 'De dienst is overbelast; niets verwerkt of aangerekend; opnieuw over {retry_after} s',
    pt: 'O serviço está sobrecarregado; nada foi processado nem cobrado; tente em {retry_after} s',
    sv: 'Tjänsten är överbelastad; inget behandlades eller debiterades; försök om {retry_after} s',
    no: 'Tjenesten er overbelastet; ingenting ble behandlet eller belastet; prøv om {retry_after} s',
    fi: 'Palvelu on ylikuormittunut; mitään ei käsitelty eikä veloitettu; yritä {retry_after} s kuluttua',
    da: 'Tjenesten er overbelastet; intet blev behandlet eller opkrævet; prøv om {retry_after} s',
    is: 'Þjónustan er ofhlaðin; ekkert var unnið né rukkað; reynið eftir {retry_after} s',
    el: 'Η υπηρεσία είναι υπερφορτωμένη· τίποτα δεν επεξεργάστηκε ούτε χρεώθηκε· δοκιμάστε σε {retry_after} δ',
  },
  storage_unavailable: {
    en: 'The service cannot store anything at the moment; nothing was charged; retry in {retry_after} s',
    it: 'Il servizio al momento non può salvare dati; nulla è stato addebitato; riprovare tra {retry_after} s',
    de: 'Der Dienst kann derzeit nichts speichern; nichts wurde berechnet; erneut in {retry_after} s',
    fr: 'Le service ne peut rien enregistrer pour le moment ; rien n’a été facturé ; réessayez dans {retry_after} s',
    es: 'El servicio no puede guardar nada en este momento; no se cobró nada; reintente en {retry_after} s',
    nl: 'De dienst kan momenteel niets opslaan; niets aangerekend; opnieuw over {retry_after} s',
    pt: 'O serviço não consegue guardar nada neste momento; nada foi cobrado; tente em {retry_after} s',
    sv: 'Tjänsten kan inte spara något just nu; inget debiterades; försök om {retry_after} s',
    no: 'Tjenesten kan ikke lagre noe akkurat nå; ingenting ble belastet; prøv om {retry_after} s',
    fi: 'Palvelu ei voi tallentaa mitään juuri nyt; mitään ei veloitettu; yritä {retry_after} s kuluttua',
    da: 'Tjenesten kan ikke gemme noget lige nu; intet blev opkrævet; prøv om {retry_after} s',
    is: 'Þjónustan getur ekki vistað neitt í augnablikinu; ekkert var rukkað; reynið eftir {retry_after} s',
    el: 'Η υπηρεσία δεν μπορεί να αποθηκεύσει τίποτα αυτή τη στιγμή· δεν χρεώθηκε τίποτα· δοκιμάστε σε {retry_after} δ',
  },
  internal_error: {
    en: 'Internal error; nothing was charged for what was not processed', it: 'Errore interno; nulla è addebitato per ciò che non è stato elaborato',
    de: 'Interner Fehler; nicht Verarbeitetes wird nicht berechnet', fr: "Erreur interne ; rien n'est facturé pour ce qui n'a pas été traité",
    es: 'Error interno; no se cobra lo no procesado', nl: 'Interne fout; niet-verwerkte items worden niet aangerekend',
    pt: 'Erro interno; nada é cobrado pelo que não foi processado', sv: 'Internt fel; det som inte behandlats debiteras inte',
    no: 'Intern feil; det som ikke ble behandlet belastes ikke', fi: 'Sisäinen virhe; käsittelemättömästä ei veloiteta',
    da: 'Intern fejl; det ubehandlede opkræves ikke', is: 'Innri villa; ekkert er rukkað fyrir það sem ekki var unnið',
    el: 'Εσωτερικό σφάλμα· δεν χρεώνεται ό,τι δεν επεξεργάστηκε',
  },
};

/** Seconds a client is asked to wait when the state store cannot write (a full disk). */
export const STORAGE_RETRY_AFTER_S = 30;

/**
 * A write the state store refused because of the machine, not the request: a full disk (ENOSPC; EIO from
 * LMDB on a full tmpfs) or a full LMDB map. Such a write changed nothing (its transaction was abandoned).
 */
export function isStorageError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // lmdb-js reports a failed batched commit as 'Commit failed' with the cause in commitError
  const cause = (error as { commitError?: unknown }).commitError;
  if (cause instanceof Promise) cause.catch(() => undefined);
  if (cause !== undefined && /Commit failed/.test(String((error as { message?: unknown }).message))) return true;
  const code = (error as { code?: unknown }).code;
  if (code === 5 || code === 28 || code === -30792 || code === 'EIO' || code === 'ENOSPC') return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && /MDB_MAP_FULL|No space left on device|Input\/output error/.test(message);
}

export function storageError(): ApiError {
  return new ApiError('storage_unavailable', { retry_after: STORAGE_RETRY_AFTER_S }, null, { retry_after: STORAGE_RETRY_AFTER_S });
}
