import { say, type Language, type Texts } from '../http/language.js';

/** The note of a site whose every address is private (src/website/fetch.ts): never contacted. */
export const PRIVATE_NOTE = 'private address not contacted';

/** WEBSITE_NOT_RESPONDING's reason when the site's address is private: nothing was asked, nothing failed to answer. */
export const PRIVATE_ADDRESS: Texts = {
  it: 'L’indirizzo del sito è privato, non su Internet pubblico: non contattato',
  en: 'The site’s address is private, not on the public Internet: not contacted',
  de: 'Die Adresse der Website ist privat, nicht im öffentlichen Internet: nicht kontaktiert',
  fr: 'L’adresse du site est privée, hors de l’Internet public : non contactée',
  es: 'La dirección del sitio es privada, fuera de Internet público: no contactada',
  nl: 'Het adres van de site is privé, niet op het openbare internet: niet benaderd',
  pt: 'O endereço do site é privado, fora da Internet pública: não contactado',
  sv: 'Webbplatsens adress är privat, inte på det publika internet: kontaktades inte',
  no: 'Nettstedets adresse er privat, ikke på det offentlige internett: ikke kontaktet',
  fi: 'Sivuston osoite on yksityinen, ei julkisessa internetissä: ei otettu yhteyttä',
  da: 'Webstedets adresse er privat, ikke på det offentlige internet: ikke kontaktet',
  is: 'Vistfang vefsins er einkavistfang, ekki á opna netinu: ekki haft samband',
  el: 'Η διεύθυνση του ιστότοπου είναι ιδιωτική, εκτός δημόσιου διαδικτύου: δεν έγινε επικοινωνία',
};

/** The notes the website check writes (src/website/fetch.ts), as English keys, in every language. */
export const NOTES: Record<string, Texts> = {
  'time limit': {
    it: 'tempo massimo superato', en: 'time limit reached', de: 'Zeitlimit erreicht', fr: 'délai maximal atteint',
    es: 'tiempo máximo alcanzado', nl: 'tijdslimiet bereikt', pt: 'tempo máximo atingido', sv: 'tidsgränsen nådd',
    no: 'tidsgrensen nådd', fi: 'aikaraja ylittyi', da: 'tidsgrænsen nået', is: 'tímamörkum náð', el: 'εξαντλήθηκε το χρονικό όριο',
  },
  'redirect to a domain without DNS records': {
    it: 'reindirizzamento a un dominio senza record DNS', en: 'redirect to a domain without DNS records',
    de: 'Weiterleitung auf eine Domain ohne DNS-Einträge', fr: 'redirection vers un domaine sans enregistrement DNS',
    es: 'redirección a un dominio sin registros DNS', nl: 'doorverwijzing naar een domein zonder DNS-records',
    pt: 'redirecionamento para um domínio sem registos DNS', sv: 'omdirigering till en domän utan DNS-poster',
    no: 'omdirigering til et domene uten DNS-oppføringer', fi: 'uudelleenohjaus verkkotunnukseen, jolla ei ole DNS-tietueita',
    da: 'omdirigering til et domæne uden DNS-poster', is: 'áframsending á lén án DNS-færslna',
    el: 'ανακατεύθυνση σε τομέα χωρίς εγγραφές DNS',
  },
  'private address not contacted': {
    it: 'indirizzo privato non contattato', en: 'private address not contacted', de: 'private Adresse nicht kontaktiert',
    fr: 'adresse privée non contactée', es: 'dirección privada no contactada', nl: 'privéadres niet benaderd',
    pt: 'endereço privado não contactado', sv: 'privat adress kontaktades inte', no: 'privat adresse ble ikke kontaktet',
    fi: 'yksityiseen osoitteeseen ei otettu yhteyttä', da: 'privat adresse blev ikke kontaktet', is: 'ekki haft samband við einkavistfang',
    el: 'δεν έγινε επικοινωνία με ιδιωτική διεύθυνση',
  },
  'invalid redirect location': {
    it: 'destinazione del reindirizzamento non valida', en: 'invalid redirect location', de: 'ungültiges Weiterleitungsziel',
    fr: 'destination de redirection invalide', es: 'destino de redirección no válido', nl: 'ongeldige doorverwijzingslocatie',
    pt: 'destino de redirecionamento inválido', sv: 'ogiltigt omdirigeringsmål', no: 'ugyldig omdirigeringsmål',
    fi: 'virheellinen uudelleenohjauksen kohde', da: 'ugyldigt omdirigeringsmål', is: 'ógilt áframsendingarmark',
    el: 'μη έγκυρος προορισμός ανακατεύθυνσης',
  },
  'redirect outside the web': {
    it: 'reindirizzamento fuori dal web (né http né https)', en: 'redirect outside the web (neither http nor https)',
    de: 'Weiterleitung außerhalb des Webs (weder http noch https)', fr: 'redirection hors du web (ni http ni https)',
    es: 'redirección fuera de la web (ni http ni https)', nl: 'doorverwijzing buiten het web (geen http of https)',
    pt: 'redirecionamento para fora da web (nem http nem https)', sv: 'omdirigering utanför webben (varken http eller https)',
    no: 'omdirigering utenfor nettet (verken http eller https)', fi: 'uudelleenohjaus verkon ulkopuolelle (ei http eikä https)',
    da: 'omdirigering uden for nettet (hverken http eller https)', is: 'áframsending út fyrir vefinn (hvorki http né https)',
    el: 'ανακατεύθυνση εκτός ιστού (ούτε http ούτε https)',
  },
  'redirect loop': {
    it: 'ciclo di reindirizzamenti', en: 'redirect loop', de: 'Weiterleitungsschleife', fr: 'boucle de redirections',
    es: 'bucle de redirecciones', nl: 'doorverwijzingslus', pt: 'ciclo de redirecionamentos', sv: 'omdirigeringsslinga',
    no: 'omdirigeringssløyfe', fi: 'uudelleenohjaussilmukka', da: 'omdirigeringsløkke', is: 'áframsendingarlykkja',
    el: 'βρόχος ανακατευθύνσεων',
  },
  'too many redirects': {
    it: 'troppi reindirizzamenti', en: 'too many redirects', de: 'zu viele Weiterleitungen', fr: 'trop de redirections',
    es: 'demasiadas redirecciones', nl: 'te veel doorverwijzingen', pt: 'demasiados redirecionamentos',
    sv: 'för många omdirigeringar', no: 'for mange omdirigeringer', fi: 'liian monta uudelleenohjausta',
    da: 'for mange omdirigeringer', is: 'of margar áframsendingar', el: 'πάρα πολλές ανακατευθύνσεις',
  },
};

/** Network failures by system code; any other code gets the generic text with the code. */
export const NETWORK: Record<string, Texts> = {
  ECONNREFUSED: {
    it: 'connessione rifiutata', en: 'connection refused', de: 'Verbindung abgelehnt', fr: 'connexion refusée',
    es: 'conexión rechazada', nl: 'verbinding geweigerd', pt: 'ligação recusada', sv: 'anslutningen nekades',
    no: 'tilkoblingen ble avvist', fi: 'yhteys evättiin', da: 'forbindelsen blev afvist', is: 'tengingu hafnað',
    el: 'η σύνδεση απορρίφθηκε',
  },
  ETIMEDOUT: {
    it: 'nessuna risposta entro il tempo massimo', en: 'no answer within the time limit', de: 'keine Antwort innerhalb des Zeitlimits',
    fr: 'pas de réponse dans le délai', es: 'sin respuesta dentro del tiempo máximo', nl: 'geen antwoord binnen de tijdslimiet',
    pt: 'sem resposta dentro do tempo máximo', sv: 'inget svar inom tidsgränsen', no: 'intet svar innen tidsgrensen',
    fi: 'ei vastausta aikarajan sisällä', da: 'intet svar inden for tidsgrænsen', is: 'ekkert svar innan tímamarka',
    el: 'καμία απάντηση εντός του χρονικού ορίου',
  },
  ECONNRESET: {
    it: 'connessione interrotta dal server', en: 'connection reset by the server', de: 'Verbindung vom Server zurückgesetzt',
    fr: 'connexion interrompue par le serveur', es: 'conexión interrumpida por el servidor', nl: 'verbinding verbroken door de server',
    pt: 'ligação interrompida pelo servidor', sv: 'anslutningen återställdes av servern', no: 'tilkoblingen ble brutt av serveren',
    fi: 'palvelin katkaisi yhteyden', da: 'forbindelsen blev afbrudt af serveren', is: 'þjónninn rauf tenginguna',
    el: 'η σύνδεση διακόπηκε από τον διακομιστή',
  },
  EHOSTUNREACH: {
    it: 'host non raggiungibile', en: 'host unreachable', de: 'Host nicht erreichbar', fr: 'hôte injoignable',
    es: 'host inalcanzable', nl: 'host onbereikbaar', pt: 'host inacessível', sv: 'värden kan inte nås',
    no: 'verten kan ikke nås', fi: 'isäntää ei tavoiteta', da: 'værten kan ikke nås', is: 'ekki næst í hýsil',
    el: 'ο κεντρικός υπολογιστής δεν είναι προσβάσιμος',
  },
};
NETWORK.ENETUNREACH = NETWORK.EHOSTUNREACH!;

export const CONNECTION_FAILED: Texts = {
  it: 'connessione non riuscita ({code})', en: 'connection failed ({code})', de: 'Verbindung fehlgeschlagen ({code})',
  fr: 'échec de la connexion ({code})', es: 'conexión fallida ({code})', nl: 'verbinding mislukt ({code})',
  pt: 'falha na ligação ({code})', sv: 'anslutningen misslyckades ({code})', no: 'tilkoblingen mislyktes ({code})',
  fi: 'yhteys epäonnistui ({code})', da: 'forbindelsen mislykkedes ({code})', is: 'tenging mistókst ({code})',
  el: 'η σύνδεση απέτυχε ({code})',
};

export const DNS_FAILED: Texts = {
  it: 'ricerca DNS non riuscita ({code})', en: 'DNS lookup failed ({code})', de: 'DNS-Abfrage fehlgeschlagen ({code})',
  fr: 'échec de la résolution DNS ({code})', es: 'consulta DNS fallida ({code})', nl: 'DNS-opzoeking mislukt ({code})',
  pt: 'falha na consulta DNS ({code})', sv: 'DNS-uppslagningen misslyckades ({code})', no: 'DNS-oppslaget mislyktes ({code})',
  fi: 'DNS-haku epäonnistui ({code})', da: 'DNS-opslaget mislykkedes ({code})', is: 'DNS-uppfletting mistókst ({code})',
  el: 'η αναζήτηση DNS απέτυχε ({code})',
};

/**
 * The probe's note in the request language. The probe writes a fixed English key, `dns <error>` or a system
 * error code; a note not listed here is passed on as written rather than lost.
 */
export function noteText(note: string, language: Language): string {
  const fixed = NOTES[note];
  if (fixed) return say(fixed, language);
  const dns = /^dns (.+)$/.exec(note);
  if (dns) return say(DNS_FAILED, language, { code: dns[1] });
  if (/^E[A-Z0-9_]+$/.test(note)) return say(NETWORK[note] ?? CONNECTION_FAILED, language, { code: note });
  return note;
}
