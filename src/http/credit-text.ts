import { say, type Language, type Texts } from './language.js';
import { textIn, type SomeTexts } from './problems.js';

/** Why a counter needs attention: the report's `warning`, by kind. */
export type CounterWarning = 'auto_topup_next' | 'auto_topup_cap' | 'awaiting_renewal' | 'nothing_left' | 'low';

const WARNINGS: Record<CounterWarning, SomeTexts> = {
  auto_topup_cap: {
    it: 'credito esaurito e tetto mensile dell’auto-ricarica raggiunto: nessun pacchetto sarà acquistato fino al mese prossimo; alza il tetto o acquista un pacchetto',
    en: 'nothing left and the auto top-up’s monthly cap is reached: no pack will be bought until next month; raise the cap or buy a pack',
    de: 'nichts mehr übrig und die Monatsgrenze der automatischen Aufladung ist erreicht: bis zum nächsten Monat wird kein Paket gekauft; Grenze erhöhen oder ein Paket kaufen',
    fr: 'plus rien et le plafond mensuel de la recharge automatique est atteint : aucun pack ne sera acheté avant le mois prochain ; relevez le plafond ou achetez un pack',
    es: 'no queda nada y se alcanzó el tope mensual de la recarga automática: no se comprará ningún paquete hasta el mes próximo; suba el tope o compre un paquete',
  },
  auto_topup_next: {
    it: 'credito esaurito: la prossima chiamata acquista un pacchetto con l’auto-ricarica se il tetto mensile lo consente',
    en: 'nothing left: the next call buys a pack through auto top-up if the monthly cap allows',
    de: 'nichts mehr übrig: der nächste Aufruf kauft per automatischer Aufladung ein Paket, wenn die Monatsgrenze es erlaubt',
    fr: 'plus rien : le prochain appel achète un pack par recharge automatique si le plafond mensuel le permet',
    es: 'no queda nada: la próxima llamada compra un paquete con la recarga automática si el tope mensual lo permite',
    nl: 'niets meer over: de volgende aanroep koopt een pakket via automatisch opwaarderen als het maandplafond het toelaat',
    pt: 'nada restante: a próxima chamada compra um pacote por recarga automática se o limite mensal o permitir',
    sv: 'inget kvar: nästa anrop köper ett paket via automatisk påfyllning om månadstaket tillåter det',
    no: 'ingenting igjen: neste kall kjøper en pakke via automatisk påfylling hvis månedstaket tillater det',
    fi: 'ei mitään jäljellä: seuraava kutsu ostaa paketin automaattisella täydennyksellä, jos kuukausiraja sallii',
    da: 'intet tilbage: næste kald køber en pakke via automatisk optankning, hvis månedsloftet tillader det',
    is: 'ekkert eftir: næsta kall kaupir pakka með sjálfvirkri áfyllingu ef mánaðarþakið leyfir',
    el: 'δεν απομένει τίποτα: η επόμενη κλήση αγοράζει πακέτο μέσω αυτόματης ανανέωσης αν το μηνιαίο όριο το επιτρέπει',
  },
  awaiting_renewal: {
    it: 'credito esaurito fino al rinnovo dell’abbonamento',
    en: 'nothing left until the subscription renews',
    de: 'nichts mehr übrig bis zur Verlängerung des Abonnements',
    fr: 'plus rien jusqu’au renouvellement de l’abonnement',
    es: 'no queda nada hasta la renovación de la suscripción',
    nl: 'niets meer over tot het abonnement wordt verlengd',
    pt: 'nada restante até à renovação da subscrição',
    sv: 'inget kvar förrän abonnemanget förnyas',
    no: 'ingenting igjen før abonnementet fornyes',
    fi: 'ei mitään jäljellä ennen tilauksen uusiutumista',
    da: 'intet tilbage før abonnementet fornyes',
    is: 'ekkert eftir fyrr en áskriftin endurnýjast',
    el: 'δεν απομένει τίποτα μέχρι την ανανέωση της συνδρομής',
  },
  nothing_left: {
    it: 'credito esaurito: acquista un pacchetto o attiva l’auto-ricarica',
    en: 'nothing left: buy a pack or activate auto top-up',
    de: 'nichts mehr übrig: ein Paket kaufen oder die automatische Aufladung aktivieren',
    fr: 'plus rien : achetez un pack ou activez la recharge automatique',
    es: 'no queda nada: compre un paquete o active la recarga automática',
    nl: 'niets meer over: koop een pakket of activeer automatisch opwaarderen',
    pt: 'nada restante: compre um pacote ou ative a recarga automática',
    sv: 'inget kvar: köp ett paket eller aktivera automatisk påfyllning',
    no: 'ingenting igjen: kjøp en pakke eller aktiver automatisk påfylling',
    fi: 'ei mitään jäljellä: osta paketti tai ota automaattinen täydennys käyttöön',
    da: 'intet tilbage: køb en pakke eller aktivér automatisk optankning',
    is: 'ekkert eftir: keyptu pakka eða virkjaðu sjálfvirka áfyllingu',
    el: 'δεν απομένει τίποτα: αγοράστε πακέτο ή ενεργοποιήστε την αυτόματη ανανέωση',
  },
  low: {
    it: 'resta meno del 10%',
    en: 'less than 10% left',
    de: 'weniger als 10 % übrig',
    fr: 'il reste moins de 10 %',
    es: 'queda menos del 10 %',
    nl: 'minder dan 10% over',
    pt: 'resta menos de 10%',
    sv: 'mindre än 10 % kvar',
    no: 'mindre enn 10 % igjen',
    fi: 'alle 10 % jäljellä',
    da: 'mindre end 10 % tilbage',
    is: 'minna en 10% eftir',
    el: 'απομένει λιγότερο από 10%',
  },
};

export const AUTO_TOPUP_NOTE: Texts = {
  it: 'pacchetti acquistati dall’auto-ricarica per questa chiamata: {count}',
  en: 'packs bought by auto top-up for this call: {count}',
  de: 'für diesen Aufruf per automatischer Aufladung gekaufte Pakete: {count}',
  fr: 'packs achetés par la recharge automatique pour cet appel : {count}',
  es: 'paquetes comprados por la recarga automática para esta llamada: {count}',
  nl: 'pakketten gekocht via automatisch opwaarderen voor deze aanroep: {count}',
  pt: 'pacotes comprados pela recarga automática para esta chamada: {count}',
  sv: 'paket köpta via automatisk påfyllning för detta anrop: {count}',
  no: 'pakker kjøpt via automatisk påfylling for dette kallet: {count}',
  fi: 'automaattisella täydennyksellä tätä kutsua varten ostetut paketit: {count}',
  da: 'pakker købt via automatisk optankning til dette kald: {count}',
  is: 'pakkar keyptir með sjálfvirkri áfyllingu fyrir þetta kall: {count}',
  el: 'πακέτα που αγοράστηκαν με αυτόματη ανανέωση για αυτή την κλήση: {count}',
};

export function warningText(kind: CounterWarning | null, language: Language): string | null {
  return kind ? textIn(WARNINGS[kind], language) : null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A response body whose `credit` object has its `note` in the request language, written from the charge's own
 * figures (`auto_topup`, the packs bought automatically) whatever text the ledger put there. Applied where every
 * body is sent (`answer`), so no consuming endpoint can leave it in English.
 */
export function creditInLanguage(body: unknown, language: Language): unknown {
  if (!isRecord(body) || !isRecord(body.credit) || typeof body.credit.auto_topup !== 'number') return body;
  const bought = body.credit.auto_topup;
  // no pack bought and no note: already right in every language (nearly every answer), nothing to copy
  if (bought === 0 && body.credit.note === null) return body;
  return { ...body, credit: { ...body.credit, note: bought > 0 ? say(AUTO_TOPUP_NOTE, language, { count: bought }) : null } };
}
