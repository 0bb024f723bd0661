import { splitSentences } from './sentences.js';
import { foldWords } from '../embedding/localEmbedder.js';
import type { ContextDocument } from './chatModel.js';
import {
  AREA_UNIT,
  holdsArea,
  holdsShare,
  holdsSpan,
  mannerAsked,
  muchOf,
  shareAsked,
  shareNoun,
  spaceAsked,
  spanAsked,
  wholeOf,
} from './doers.js';

/**
 * The local answerer's reading of a turn's documents (docs/adr/132-local-answerer.md): the
 * documents become facts (a `Label: value` line, a table row read against its header, a
 * sentence of prose), each fact is scored against the question, and the answer states the
 * best facts first, whole, each with its citation. Pure and deterministic throughout.
 */

/** Longest subject that names what a fact is about; a longer one is a passage, not a name. */
const SUBJECT_CHARS = 120;
/** Facts stated at most in one answer: the answer and two more that answer as well. */
const MAX_FACTS = 3;
/** A further fact must score at least this share of the best one. */
const FURTHER_SHARE = 0.6;
/** Longest fact stated whole; a longer sentence is shown around its matched words. */
const MAX_FACT_CHARS = 420;
/**
 * The question is answered when the best fact matches at least this share of the question's
 * weight (its terms weighted by rarity in the documents); below it the report "does not say".
 */
const ANSWERED_SHARE = 0.4;
/** Least share of the question a fact far above every other must match to answer it, */
const STANDS_OUT_COVERAGE = 0.3;
/** and how many times the next fact's score it must have. */
const STANDS_OUT_RATIO = 1.8;

// Words that match everywhere and say nothing about what is asked.
const STOPWORDS = new Set(
  (
    'the and for are was were with what which who whom whose when where why how does did done ' +
    'this that these those there their them they then than have has had not but you your yours ' +
    "can could would should will shall may might must its it's into onto from about over under " +
    'any all some such very also just only more most less much many one two per tell show give please again once ' +
    'report say says said know there here out off our ours his her hers him she he is be been being ' +
    'home house property unit inspection inspector found noted listed described way like'
  ).split(/\s+/),
);

/** Stop words that every report says, asked for when a question says nothing else. */
const REPORT_WORDS = new Set('home house property unit inspection inspector'.split(' '));

/** Words a finding is said in: what "what is wrong with …" asks for. */
const DEFECT_WORDS = (
  'condition defect deficiency damaged damage repair replace observed noted missing loose ' +
  'cracked crack leak leaking rust rusted deteriorated worn improper improperly split broken ' +
  'stained stains frost corrosion corroded failed failing hollow hollowness damp dampness ' +
  'seepage spalling efflorescence mould mold rot rotted sagging'
).split(' ');

/** A finding rather than what a thing is: "Foundation Cracks - Minor", "Damaged trim". */
const DEFECT_FACT =
  /\b(defects?|deficienc(y|ies)|damaged?|cracks?|cracked|leaks?|leaking|rust(ed)?|deteriorated|worn|broken|corroded|failed|failing)\b/i;

/** What a finding says, not what to do about it: the words of a defect less repair and replace. */
const FINDING_SAID = [
  ...DEFECT_WORDS.filter((w) => w !== 'repair' && w !== 'replace'),
  ...'poor bubbling blistering inoperable inoperative'.split(' '),
];

/** A name in capitalised words, with its aside in brackets: "Sample West (Town A & Town B)". */
const NAME_SUBJECT = /^(?:\p{Lu}\p{Ll}+\s+)+\p{Lu}\p{Ll}+(?:\s+\([^()]+\))?$/u;

/** Where one thing is against another: "Light fitting at Beam 3". */
const LOCATIVE = /^(at|near|below|above|under|beneath|beside|behind|by|over)$/;

/** Words a size is said in: what "how big …" asks for. */
const BIG_WORDS = [
  'size',
  'capacity',
  'gallon',
  'gallons',
  'sq',
  'sqft',
  'sf',
  'square',
  'footage',
  'acre',
  'acres',
];

/** A dwelling, whose size is its living area. */
const HOUSE_ASKED = /\b(?:house|home|dwelling|residence)\b/i;
/** The label of a dwelling's size: "Living Area", "Gross Living Area (GLA)", "GLA". */
const LIVING_AREA = /\bliving area\b|\bGLA\b/i;

/** The kinds a road is named by ("Sample Drive"); a word in its own list matches as itself. */
const ROAD_KINDS = ['road', 'street', 'drive', 'avenue', 'lane', 'highway', 'boulevard'];

/**
 * "Did the inspector go on the roof?", "Was the roof walked?": how it was seen is asked (from a
 * ladder, the ground, by drone), which a report says without the question's verb. Not "roof
 * mounted" (solar panels) nor "roof access" (a hatch).
 */
const ROOF_ACCESS =
  /\b(?:(?:go|get|went|gone|got|step|stepped|climb|climbed|walk|walked)\s+(?:up\s+)?(?:on|onto|on to)\s+(?:the\s+|its\s+)?roof|(?:walk|walked|climb|climbed)\s+(?:the\s+|its\s+)?roof|roof\s+(?:was\s+|been\s+)?(?:walked|climbed)|roof\s+(?:was|been)\s+(?:accessed|mounted))\b/gi;

/** Words a report says how a roof was seen in: what "did the inspector go on the roof" asks. */
const ROOF_VIEW_WORDS = [
  'walked',
  'walking',
  'ladder',
  'binoculars',
  'drone',
  'ground',
  'accessed',
  'mounted',
  'visual',
  'physically',
  'viewed',
  'eaves',
];

/** Words a repair is said in. */
const FIX_WORDS = ['repair', 'repairs', 'correct', 'replace', 'seal'];

/** Words of a market's trend. */
const TREND_WORDS = ['trend', 'trends', 'increasing', 'stable', 'declining', 'appreciating'];
/** Words of who lives in a house, or that no one does. */
const OCCUPANCY_WORDS = [
  'occupied',
  'occupant',
  'occupancy',
  'vacant',
  'vacancy',
  'tenant',
  'tenants',
];

/** Words a report says what was found in. */
const FOUND_WORDS = [
  'found',
  'detected',
  'observed',
  'noted',
  'identified',
  'shows',
  'showed',
  'revealed',
  'confirmed',
];

/**
 * Words a buyer asks with and the words reports answer with. A question's term also matches
 * its related words, at a lower weight.
 */
const RELATED: Record<string, readonly string[]> = {
  wrong: DEFECT_WORDS,
  problem: DEFECT_WORDS,
  problems: DEFECT_WORDS,
  issue: DEFECT_WORDS,
  issues: DEFECT_WORDS,
  defects: DEFECT_WORDS,
  old: ['age', 'year', 'years', 'installed', 'manufactured', 'built', 'vintage'],
  walk: ROOF_VIEW_WORDS,
  far: [
    'away',
    'distance',
    'distant',
    'km',
    'kilometers',
    'kilometres',
    'miles',
    'mi',
    'meters',
    'metres',
    'minutes',
    'min',
    'drive',
    'walk',
  ],
  // "Who is buying the property?" of "Contact: Sample Person (purchaser)".
  buying: ['buyer', 'purchaser', 'purchasing', 'purchase'],
  // "Does the house conform to the zoning?" of "The subject is legal, nonconforming …".
  conform: ['conforming', 'nonconforming', 'compliance', 'complies', 'compliant'],
  // "Who owns the property?" of "under the ownership of …" (not "owner": an owner's phone
  // number is no owner).
  owns: ['ownership', 'owned'],
  // "Is there any construction planned nearby?" of "Future development: … within ~1 mi".
  nearby: ['near', 'within', 'vicinity', 'around', 'surrounding'],
  planned: ['future', 'proposed', 'scheduled', 'development'],
  age: ['old', 'year', 'years', 'installed', 'manufactured', 'built'],
  new: ['age', 'year', 'years', 'installed'],
  built: ['year', 'constructed', 'construction', 'age'],
  size: ['capacity', 'gallon', 'gallons', 'amp', 'amps', 'btu', 'tons', 'rating', 'rated'],
  big: BIG_WORDS,
  large: BIG_WORDS,
  lot: ['land', 'site', 'tract', 'parcel'],
  land: ['lot', 'site', 'tract', 'parcel', 'acres', 'acreage'],
  // "What shape is the parcel?": "Site: The subject is irregular in shape".
  parcel: ['lot', 'site', 'tract', 'land'],
  // "Real estate taxes" are property taxes.
  property: ['estate'],
  used: ['utilized', 'utilised', 'employed', 'applied'],
  // An appraisal's words: "cap rate" for the capitalization rate; what was paid is a price.
  capitalization: ['cap'],
  cap: ['capitalization'],
  pay: ['paid', 'price', 'purchase', 'purchased', 'cost'],
  paid: ['pay', 'price', 'purchase', 'purchased', 'cost'],
  listed: ['listing', 'asking', 'list'],
  buyer: ['purchaser', 'buyers', 'grantee'],
  sell: ['exposure', 'marketing', 'sale', 'sold'],
  // "How long is the expected marketing time?" of "Market Time: 90-120 days".
  marketing: ['market', 'exposure'],
  sold: ['sale', 'sales', 'transfer', 'transferred'],
  // "How was the property zoned before?": "previously zoned R-1".
  before: ['previously', 'prior', 'formerly', 'former', 'earlier'],
  // What a thing is worth is its value.
  worth: ['value', 'valued', 'valuation', 'price'],
  // "Is it in a flood zone?": a flood hazard area.
  zone: ['area', 'zoned', 'zoning'],
  zoned: ['zoning', 'zone', 'classification'],
  // "Are values rising?": a trend, whichever way it goes.
  rising: TREND_WORDS,
  falling: TREND_WORDS,
  increasing: TREND_WORDS,
  declining: TREND_WORDS,
  // "Does the house need repairs?": "No Repairs Required".
  need: ['required', 'requires', 'require', 'necessary', 'needed', 'needs'],
  needs: ['required', 'requires', 'require', 'necessary', 'needed', 'need'],
  // "How big is the finished basement?": the area below grade.
  basement: ['below'],
  working: ['running', 'operating', 'operational', 'functional', 'functioning'],
  // "How far is the nearest shopping?": "Nearest retail, … is 423 meters away".
  shopping: ['retail', 'shops', 'stores', 'mall', 'grocery', 'supermarket'],
  // "How many bedrooms?": a listing's "BEDS: 4", "BATHS: 3".
  bedrooms: ['beds', 'bed', 'br'],
  bathrooms: ['baths', 'bath', 'ba'],
  // "Is the house occupied?": "Property Occupant: Vacant" says who lives there, or no one.
  occupied: OCCUPANCY_WORDS,
  occupancy: OCCUPANCY_WORDS,
  address: ['street', 'st', 'road', 'rd', 'avenue', 'ave', 'drive', 'lane', 'located', 'location'],
  // "Which road does the property front onto?" of "frontage on Sample Drive": a road is named
  // by its kind, whichever.
  road: ROAD_KINDS,
  street: ROAD_KINDS,
  capacity: ['size', 'amp', 'amps', 'gallon', 'gallons', 'rating', 'rated'],
  long: [
    'length',
    'minutes',
    'min',
    'hours',
    'hrs',
    'days',
    'weeks',
    'months',
    'years',
    'km',
    'kilometers',
    'kilometres',
    'miles',
    'meters',
    'metres',
    'feet',
    'ft',
    'inches',
    'cm',
    'mm',
  ],
  left: ['remaining', 'residual', 'remains'],
  minimum: ['min', 'least'],
  compare: ['vs', 'versus', 'above', 'below', 'compared', 'than'],
  maximum: ['max', 'most'],
  rating: ['rated', 'class', 'grade', 'classification'],
  difference: ['delta', 'differential'],
  covering: ['roofing', 'shingles', 'shingle', 'material', 'covered'],
  covered: ['covering', 'roofing', 'shingles', 'material'],
  located: ['location', 'located'],
  year: ['year', 'built', 'installed', 'date', 'dated', 'manufactured'],
  where: ['location', 'located'],
  amperage: ['amp', 'amps', 'ampere', 'capacity'],
  amps: ['amp', 'amperage', 'ampere'],
  brand: ['make', 'manufacturer', 'model', 'brand'],
  make: ['brand', 'manufacturer', 'model'],
  manufacturer: ['brand', 'make', 'manufactured'],
  kind: ['type', 'material', 'style'],
  type: ['kind', 'material', 'style'],
  material: ['type', 'materials', 'made'],
  made: ['material', 'materials', 'type'],
  // wrong, problem(s), issue(s), defect(s): the words findings are said in (DEFECT_WORDS).
  condition: [
    'serviceable',
    'satisfactory',
    'fair',
    'poor',
    'good',
    'condition',
    'marginal',
    'deficient',
    'evaluation',
    'rated',
    // With no rating given, the finding says it: "Several roof shingles were observed to be
    // broken."
    'broken',
    'cracked',
    'damaged',
    'deteriorated',
    'deteriorating',
    'peeling',
    'worn',
    'corroded',
  ],
  fuel: ['gas', 'electric', 'oil', 'energy', 'source'],
  heated: ['heating', 'heat', 'furnace', 'boiler'],
  furnace: ['heating'],
  heating: ['furnace', 'boiler', 'heat'],
  air: ['cooling', 'conditioner', 'conditioning'],
  heat: ['heating', 'furnace', 'boiler'],
  cooled: ['cooling', 'air', 'conditioning', 'conditioner'],
  insulation: ['insulated', 'batt', 'batts', 'cellulose', 'fiberglass', 'fibreglass'],
  insulated: ['insulation', 'batt', 'cellulose', 'fiberglass'],
  roof: ['roofing', 'shingles', 'shingle', 'covering'],
  subfloor: ['subflooring', 'subfloors'],
  roofing: ['roof', 'shingles', 'covering'],
  wiring: ['wire', 'wires', 'conductors', 'conductor', 'copper', 'aluminum', 'aluminium'],
  pipes: ['piping', 'pipe', 'plumbing', 'supply', 'lines'],
  piping: ['pipes', 'pipe', 'plumbing', 'supply', 'lines'],
  walls: ['wall', 'cladding', 'siding', 'exterior', 'sidewall', 'sidewalls'],
  cladding: ['siding', 'walls', 'exterior'],
  siding: ['cladding', 'walls', 'exterior'],
  foundation: ['foundations', 'footings', 'basement', 'slab'],
  // "What did the scan find?": what it detected, observed or showed.
  find: FOUND_WORDS,
  found: FOUND_WORDS,
  show: FOUND_WORDS,
  reveal: FOUND_WORDS,
  // "When does the leakage happen?": "Leakage during: All time".
  happen: ['during', 'occurs', 'occur', 'occurred', 'occurring', 'happens', 'happened'],
  occur: ['during', 'occurs', 'occurred', 'occurring', 'happen', 'happens'],
  windows: ['window', 'glazing', 'glass', 'pane', 'panes'],
  // "How should it be repaired?" (ADVICE_QUESTION favours what the report recommends).
  repaired: FIX_WORDS,
  fixed: FIX_WORDS,
  fix: FIX_WORDS,
  wide: ['width', 'inch', 'inches', 'mm', 'cm'],
  width: ['wide', 'inch', 'inches', 'mm', 'cm'],
  high: ['height', 'tall', 'mm', 'feet', 'ft'],
  tall: ['height', 'high', 'feet', 'ft'],
  glass: ['glazing', 'pane', 'panes', 'windows'],
  urgent: ['urgency', 'priority', 'immediate', 'immediately'],
  valid: ['validity', 'expires', 'expiry'],
  hot: ['temperature', 'temp', 'deg', 'heat', 'hotspot'],
  hottest: ['temperature', 'temp', 'hotspot', 'highest', 'max'],
  cold: ['temperature', 'temp', 'deg'],
  warm: ['temperature', 'temp', 'deg'],
  start: ['commence', 'commencement', 'begin'],
  begin: ['commence', 'start'],
  soon: ['within', 'days', 'weeks'],
  delivered: ['delivery'],
  deliver: ['delivery'],
  remain: ['remaining'],
  worse: ['worsened', 'worsening', 'deteriorated', 'increases', 'increased', 'worsens'],
  smell: ['odor', 'odour', 'odors', 'odours', 'smells', 'musty'],
  odor: ['smell', 'smells', 'odour', 'musty'],
  odour: ['smell', 'smells', 'odor', 'musty'],
  // "Which camera was used?": the thermal camera is the device the image names.
  camera: ['device', 'imager', 'instrument'],
  // "Where does the water come from?": its source ("public water", "a private water well").
  come: [
    'source',
    'sources',
    'origin',
    'originates',
    'supply',
    'supplied',
    'public',
    'private',
    'municipal',
    'wells',
  ],
  face: ['facing', 'orientation'],
  thermal: ['radiometric', 'infrared'],
  // "Which electrical panel is overheating?" of "Distribution board DB-2: a temperature
  // differential of 14 deg C at its neutral bar".
  overheating: ['temperature', 'temp', 'deg', 'hotspot', 'anomaly', 'differential'],
  panel: ['board', 'boards', 'switchboard', 'mdb'],
  panels: ['board', 'boards', 'switchboards', 'mdb', 'mdbs'],
  // "Is the property on city water and sewer?" of "serviced by a shared septic and cistern".
  sewer: ['septic', 'sewage', 'sanitary'],
};

/**
 * Whether a sentence qualifies the one before it: "This purchase was for the land only" after
 * "The purchase price … was $240,595" names the same thing by a noun of it. "It was last serviced
 * in 2023" says something new of it, which is not the sentence before's to claim. Pure.
 */
function qualifies(sentence: string, before: string): boolean {
  const noun = /^(?:this|these|that|those)\s+(\p{L}{3,})/iu.exec(sentence)?.[1]?.toLowerCase();
  return noun !== undefined && foldWords(before).some((w) => sameWord(w, noun));
}

/** A referral to a tradesperson: boilerplate alone, a finding's advice after an observation. */
const REFERRAL =
  /\b(should be (evaluated|reviewed|assessed) by|(qualified|licensed) (contractor|professional|specialist|tradesperson)|for (further|more) (evaluation|information))/gi;
/** A finding's own words: what the inspector saw. */
const OBSERVED = /\b(observed|noted|found|exhibiting|exhibits)\b/i;

/** Boilerplate of reports: limits, disclaimers, advice to call someone else. */
const BOILERPLATE = new RegExp(
  `\\b(our (inspection|review|evaluation)s? (of|is|was|are|does|do|will)|(we|inspectors?) (may not|do not|cannot|can not|are not|did not)|regular maintenance|(home )?inspectors? (do|does|did|are|is|shall|will) not|(does|do|did|will|shall) not (include|perform|inspect|evaluate|determine|report|cover)|are not (removed|moved|tested|operated|turned)|shall (describe|inspect|report|observe)|this (report|inspection) (is|was|does|should)|not (a|an) (warranty|guarantee|insurance)|(is|are|were) not (performed|included|evaluated|tested|determined) (as part of|during|in)|(?<!tax )liabilit|disclaim|standards? of practice|beyond the scope|scope of (this|the|our) (inspection|report)|not (included|inspected|part of)|were not (visible|accessible|tested|inspected)|could not be (seen|inspected|viewed|accessed)|we (do not|cannot|can not|did not) |are not responsible|${REFERRAL.source}|visual inspection only|terms and conditions|implicit in this definition|market value (is defined|means)|assumes? no responsibility|should be contacted to determine)`,
  'i',
);

/**
 * Whether a text is boilerplate: a disclaimer, a limit of the inspection, a definition. "Stucco
 * on the chimney is peeling … should be evaluated and repaired by a qualified contractor" reports
 * what was observed, and its referral does not make it boilerplate. Pure.
 */
function boilerplate(text: string): boolean {
  if (!BOILERPLATE.test(text)) return false;
  return !(OBSERVED.test(text) && !BOILERPLATE.test(text.replace(REFERRAL, ' ')));
}

/** Dates and record numbers ("October 16, 2020", "#750394", "3/10/20"). */
const DATES =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)\p{L}*\.? \d{1,2},? \d{4}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|#\s?\d+/giu;

/** A section of an appraisal's comparables ("Comparable Rentals", "Improved Sales Comparables"). */
const COMPARABLES_TITLE =
  /\bcomparables\b|\bcomparable (sales|rentals|listings|leases)\b|\b(?:improved|land) sales\b|\bsales and listings?\b/i;
/** A comparable's own sheet, numbered at its end: "Sale Land - Hotel/Motel No. 3". */
const COMPARABLE_SHEET =
  /^\s*(?:sale|comparable|comp|rental|listing|lease)\b.*\bno\.?\s?\d{1,2}\s*$/i;

/** A comparable of an appraisal, by its number ("Sale 4", "Rental 2", "Comparable No. 3"). */
const COMPARABLE = /\b(sale|comparable|comp|rental|listing|lease) (no\.? ?|#)?\d{1,2}\b/i;
/** A comparable's name alone on its line: "Pending Sale 1", "Improved Sale No. 3", "Rental 2". */
const COMPARABLE_NAME_LINE =
  /^\s*(?:[\p{L}]+\s+)?(?:sale|comparable|comp|rental|listing|lease)\s*(?:no\.?\s*|#\s*)?\d{1,2}\s*$/iu;
/**
 * How a sale was checked ("Verified by the listing agent", "Price confirmed with the buyer") or
 * to whom it went ("Grantee: …"): with a sale named, the text is a comparable's write-up.
 */
const SALE_VERIFIED = /\b(?:verified|confirmed) (?:by|with)\b|\bgrantee\b/i;
/** A comparable named by its number: "Comparable Sale # 1", "comp 1", "Comparable No. 3". */
const COMPARABLE_NUMBER =
  /\b(?:comparable|comp)\.?\s*(?:sales?|rentals?|listings?|leases?)?\s*(?:no\.?\s*|#\s*)?(\d{1,2})\b/i;
/** Every comparable a text names by its number. */
const COMPARABLE_NUMBERS = new RegExp(COMPARABLE_NUMBER.source, 'gi');
/** Comparables spoken of together: "comparable sales in the subject neighborhood …". */
const COMPARABLES_IN_GENERAL = /\bcomparable (?:sales|properties|listings|rentals)\b/i;
/**
 * A label and a value of capitalised words or codes ("Zoning: M-1 – Light Industrial"), then a
 * sentence run on after it that opens with an article or a pronoun ("The light industrial zone
 * is …").
 */
const RUN_ON =
  /^([^:.!?]{1,60}:\s*(?:[\p{Lu}\d][^\s.!?]*\s+|[–—-]\s+){1,8}?)((?:The|This|These|Its?|A|An)\s+\p{Ll}[\s\S]*)$/u;
/** A comparable's write-up, led by its name and a colon ("Sale 3: Sale 3 is located …"). */
const COMPARABLE_LEAD =
  /^((?:sale|comparable|comp|rental|listing|lease) (?:no\.? ?|#)?\d{1,2}):\s/i;

/** A question's words that ask which figure was taken ("What rate was applied?"). */
const CHOSEN_WORDS: ReadonlySet<string> = new Set([
  'applied',
  'used',
  'selected',
  'chosen',
  'concluded',
  'adopted',
]);
/** A valuer's conclusion ("I have estimated …", "I have concluded to …"). */
const CONCLUDED =
  /\b(I|we) (have )?(estimated|concluded|determined|chosen|selected|reconciled|placed)\b|\bconcluded (to|at)\b|\b(concluded|reconciled) (market )?value\b|\bvalue conclusion\b|^\s*(therefore|thus|accordingly),/i;

/** A span of figures ("7.5% - 11.2%", "$12 to $15"): where a figure was chosen from. */
const FIGURE_RANGE = /[$£€]?\d[\d,.]*\s?%?\s*(?:-|–|to)\s*[$£€]?\d[\d,.]*\s?%?/;

/** Sentences of general advice: what can happen, not what is. */
const ADVICE =
  /\b(can|may|could|will|tend to|typically|generally|usually|often) (cause|affect|lead|result|occur|develop|fail|leak|be expected)\b|\b(it is|is) (recommended|important|advisable|prudent)\b/i;

/**
 * Lines that are page furniture, not content. A report's number on its cover ("Report No:
 * 2018-0001") is content, which a question may ask; a running header is the parser's to drop.
 */
const FURNITURE = /^(page \d+( of \d+)?|\d+ of \d+|\d+|printed on .*|confidential)$/i;

/** "What was it listed for?": listed for sale, at a price, not noted in a report. */
function listedFor(words: readonly string[], i: number): boolean {
  return words[i] === 'listed' && /^(for|at)$/.test(words[i + 1] ?? '');
}

/** The folded words of a question worth looking for. Pure. */
export function queryTerms(query: string): string[] {
  const words = foldWords(query);
  // "property crime", "home value": a word every report says, naming a kind of the next word.
  // Not "the property" ("Which way does the property face?"): there it is what is asked about.
  // "What type of property …": the property is the kind asked about, not a report's word.
  const framed = (i: number): boolean =>
    /^(kinds?|types?|sorts?|styles?)$/.test(words[i - 2] ?? '') && words[i - 1] === 'of';
  const modifies = (i: number): boolean => {
    const next = words[i + 1];
    if (REPORT_WORDS.has(words[i]!) && framed(i)) return true;
    return (
      REPORT_WORDS.has(words[i]!) &&
      !/^(the|this|that|my|our|your|a|an)$/.test(words[i - 1] ?? '') &&
      next !== undefined &&
      next.length >= 3 &&
      !STOPWORDS.has(next)
    );
  };
  return [
    ...new Set(
      words.filter(
        (w, i) =>
          (w.length >= 3 || /\d/.test(w)) &&
          (!STOPWORDS.has(w) || modifies(i) || listedFor(words, i)),
      ),
    ),
  ];
}

/** One thing a document states, ready to be said. */
export interface Fact {
  /** The document it comes from (index into the turn's documents). */
  doc: number;
  /** Position inside the document, for reading order. */
  index: number;
  /** Clean text, whole. */
  text: string;
  /** A `Label: value` pair or a table row: a short fact rather than prose. */
  labelled: boolean;
  /**
   * What the fact is about when its text does not say: the words before a grid's first label
   * (`DISTRIBUTION SYSTEM \ Wiring`) or the heading above it inside the document. Null: the
   * document's title.
   */
  subject: string | null;
  /** Facts of one grid (consecutive labelled facts) share a block: each is context for the others. */
  block: number;
  /** The sentence before, for one that starts with a pronoun ("It was last serviced in 2023"). */
  prior?: string;
  /**
   * The sentence after, when it qualifies this one by a noun of it ("This purchase was for the
   * land only" after "The purchase price … was $240,595").
   */
  next?: string;
}

/** Text as a person reads it: markdown marks, escapes and runs of spaces gone. Pure. */
export function cleanText(line: string): string {
  return (
    line
      .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ') // images
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') // links: their text
      .replace(/^\s{0,3}(?:#{1,6}\s+|>\s*|[-*+•●▪◦■][\u200b\s]+|\d+[.)]\s+(?=\D))/u, '')
      .replace(/(?<!\\)(\*\*|__|`)/g, '')
      .replace(/(^|\s)[*_](\S(?:.*?[^\s\\])?)[*_](?=\s|[.,;:!?]|$)/g, '$1$2')
      // Markdown escapes (any ASCII punctuation, CommonMark): the character itself.
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/&nbsp;/g, ' ')
      // A form's dot leader to its figure ("OPINION OF SITE VALUE ........ =$ 425000"): a label
      // and its value. A contents line's leader to a page number stays.
      .replace(/(?<![.\s])\s*\.{4,}(?!\.)\s*(?:=\s*(?=[$\d(-])|(?=\$))/g, ': ')
      .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
      // "8 years old.Looked at": a sentence run into the next one.
      .replace(/(\p{Ll}{2})\.(\p{Lu}\p{Ll})/gu, '$1. $2')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function tableCells(line: string): string[] | null {
  const t = line.trim();
  if (!t.startsWith('|')) return null;
  return t
    .replace(/^\|/, '')
    .replace(/\|\s*$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => (MARK.test(c.trim()) ? c.trim() : cleanText(c)));
}

/** The choices a question offers: "urban, suburban or rural", "gas or electric". Pure. */
export function choicesOf(query: string): string[] {
  // The choices end the question: its last words are all that is read.
  const tail = query.slice(-200);
  if (!/\sor\s/i.test(tail)) return [];
  const m = /\b([\p{L}-]+)((?:,\s*[\p{L}-]+)*),?\s+or\s+([\p{L}-]+)\s*\??\s*$/u.exec(tail);
  if (!m) return [];
  const listed = [m[1]!, ...(m[2] ?? '').split(',').map((w) => w.trim()), m[3]!];
  return listed.filter((w) => w !== '').map((w) => w.toLowerCase());
}

/**
 * A form's prompt: its examples in brackets closed by "etc.)" ("Additional features (special
 * energy efficient items, etc.).").
 */
const FORM_PROMPT = /\betc\.?\)[.:]?$/;

/**
 * A form's prompt and the answer typed after it are one fact: "Additional features (special
 * energy efficient items, etc.): Central A/C, newer windows". Pure.
 */
function withPromptsAnswered(sentences: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i] as string;
    const next = sentences[i + 1];
    if (next !== undefined && FORM_PROMPT.test(s) && s.length <= 160) {
      out.push(`${s.replace(/[.:]$/, '')}: ${next}`);
      i++;
    } else out.push(s);
  }
  return out;
}

/**
 * A table's first row that is label/value pairs, not titles: two pairs or more (and maybe a
 * column of prose after them), a figure in a value's place and none in a label's, no cell said
 * twice ("Effective Date of Appraisal | 09/20/2019 | Property Valuation Method | Traditional
 * Appraisal"). Pure.
 */
function pairRow(row: readonly string[]): boolean {
  // A last column of prose beside the pairs is no pair.
  const cells = row.length % 2 === 1 ? row.slice(0, -1) : row;
  if (cells.length < 4) return false;
  const labels = cells.filter((_, i) => i % 2 === 0);
  const values = cells.filter((_, i) => i % 2 === 1);
  // A row that repeats a cell ("Year Built | 1956 | Similar | Similar") is a grid's row.
  const filled = row.filter((c) => c !== '').map((c) => c.toLowerCase());
  return (
    values.some((v) => /\d/.test(v)) &&
    labels.every((l) => l !== '' && /\p{L}{2}/u.test(l) && !/\d/.test(l)) &&
    new Set(filled).size === filled.length
  );
}

/** A labelled fact's label ("Net Operating Income" of "Net Operating Income: $51,329"), else ''. */
function factLabel(f: Fact): string {
  return f.labelled ? (f.text.split(':')[0] ?? '') : '';
}

/** What a labelled fact says after its label's colon ('' for a fact without a label). */
function factValue(f: Fact): string {
  return f.labelled ? f.text.slice(f.text.indexOf(':') + 1) : '';
}

/**
 * Facts of a series of like records: a label said with three values or more, each in another
 * document of one section ("Net Operating Income: $51,329", "… $50,721", "… $49,453" under
 * "cwu 1 - 4", the comparables' write-ups), while a document of another section says it too
 * (the subject's "Net Operating Income: $108,649" under "Income Approach"). Pure.
 */
function seriesFacts(facts: readonly Fact[], documents: readonly ContextDocument[]): Set<number> {
  const byLabel = new Map<string, number[]>();
  facts.forEach((f, i) => {
    if (!f.labelled) return;
    const label = factLabel(f).trim().toLowerCase();
    if (!label) return;
    const indexes = byLabel.get(label);
    if (indexes) indexes.push(i);
    else byLabel.set(label, [i]);
  });
  const out = new Set<number>();
  for (const indexes of byLabel.values()) {
    if (indexes.length < 4) continue;
    const bySection = new Map<string, number[]>();
    for (const i of indexes) {
      // "COMPARABLE SALE NO. 5", "… NO. 6": one series of sections.
      const title = (documents[facts[i]!.doc]?.title ?? '').replace(/\d+/g, '#');
      const group = bySection.get(title);
      if (group) group.push(i);
      else bySection.set(title, [i]);
    }
    if (bySection.size < 2) continue;
    for (const group of bySection.values()) {
      const docs = new Set(group.map((i) => facts[i]!.doc));
      const values = new Set(group.map((i) => facts[i]!.text.toLowerCase()));
      if (docs.size >= 3 && values.size >= 3) for (const i of group) out.add(i);
    }
  }
  return out;
}

/** A figure no column title holds: an amount, a decimal, a number of thousands (a year is a title). */
const FIGURE = /[$€£]\s?\d|\d,\d{3}|\d\.\d|\b(?!(?:19|20)\d\d\b)\d{3,}\b/;
/** The figure a title counts by: "Crime Rate per 1,000", "Deaths per 100,000". */
const PER_FIGURE = /\bper\s+\d[\d,]*\b/gi;

/** A label and its value, one colon between them ("Repair Total:" and "$0": "Repair Total: $0"). */
function paired(label: string, value: string): string {
  return `${label.replace(/\s*:\s*$/, '')}: ${value}`;
}

/**
 * A cell that starts with the unit of the figure before it: "sq.ft. 1320" after "1480"; the unit
 * alone or before a figure ("SF Residence" says a single-family house).
 */
const UNIT_FIRST = /^(sq\.? ?ft\.?|s\.f\.|sf|sq\.? ?m\.?|m²|acres?)(?=\s*(?:$|[\d(+-]))\s*/i;

/**
 * A row's cells with each unit back beside its figure: a form's grid prints "1480 | | sq.ft. 1320"
 * for "1480 sq.ft." and "1320 …" of the next column. Pure.
 */
function unitsJoined(cells: readonly string[]): string[] {
  const out = [...cells];
  let figure = -1;
  out.forEach((c, i) => {
    if (c === '') return;
    const unit = UNIT_FIRST.exec(c);
    if (unit && figure >= 0) {
      out[figure] = `${out[figure]} ${unit[1]}`;
      out[i] = c.slice(unit[0].length);
    }
    figure = /\d$/.test(out[i]!) ? i : -1;
  });
  return out;
}

/** A table row read against its header: `Item: Window & Frames; Rating: Repair`. */
function rowFact(header: readonly string[] | null, row: readonly string[]): string | null {
  const cells = unitsJoined(row);
  const filled = cells.map((c, i) => ({ c, h: header?.[i] ?? '' })).filter((x) => x.c !== '');
  if (filled.length === 0) return null;
  const [first, ...rest] = filled;
  // A row of figures under titles ("5.2 | 6.2 | 8.1" under "Property | Health | Livability"):
  // its first figure names no row; each figure is its title's.
  if (rest.length > 0 && first!.h && filled.every(({ c }) => !/\p{L}/u.test(c)))
    return filled.map(({ c, h }) => (h ? paired(h, c) : c)).join('; ');
  if (rest.length === 0)
    return first!.h && first!.h !== first!.c ? paired(first!.h, first!.c) : first!.c;
  // A row of a two-column table is a label and its value ("Facing | North" under "Field |
  // Details"): the value column's header says nothing the row does not, unless it names the
  // row's figure ("Texas West | 8.9" under "Location | Overall Score").
  const only = rest[0]!;
  if (cells.length === 2 && rest.length === 1 && !MARK.test(only.c))
    return only.h && NAMING_HEADER.test(only.h) && !/\p{L}/u.test(only.c)
      ? paired(first!.c, paired(only.h, only.c))
      : paired(first!.c, only.c);
  const parts = rest.map(({ c, h }) => {
    if (!h) return c;
    // A mark in a rating column says the column applies: `Repair`, not `Repair: •`.
    if (MARK.test(c)) return h;
    return paired(h, c);
  });
  return paired(first!.c, parts.join('; '));
}

/** A column's title that says what its figures are: a score, a rate, a price … */
const NAMING_HEADER =
  /\b(score|rating|rate|ratio|price|cost|rent|tax(es)?|yield|roi|percent(age)?|share|count|number|size|area|age|year|temperature|reading|distance)\b/i;

/** A mark in a grid cell (a rating grid's column that applies). */
const MARK = /^[•✓✔xX*●■◼√]$/;

/** Labels that detail a finding (`Condition: … Location: Kitchen Task: Repair`): kept with it. */
const DETAIL_LABEL =
  /^(implications?(\(s\))?|location|task|time|cost|notes?|photos?|estimated cost)$/i;

/** Words that label alone in findings and grids: a label run stops at them. */
const SINGLE_LABEL =
  /^(task|location|time|condition|implications?(\(s\))?|cost|notes?|comments?|observations?|recommendations?|type|material|age|size|rating|model|brand|make|style|status)$/i;
/** Words that say which of a label's kind is meant: "Effective Age", "Total Cost", "Gross Size". */
const LABEL_MODIFIER =
  /^(effective|actual|total|remaining|average|approximate|estimated|gross|net|overall|economic|chronological|apparent|minimum|maximum|current|original|typical)$/i;

/**
 * A label alone on its line, its text on the lines below: "Observations:" then "Metal. 8 years
 * old." The reports of inspection apps set each item so, under the item's name.
 */
const LABEL_ALONE =
  /^(observations?|comments?|recommendations?|notes?|descriptions?|findings?|remarks?|details?|photos?|images?|pictures?)\s*:$/i;

/** How an item was rated, said after its name on the item's line ("Water Heater Needs Evaluation"). */
const ITEM_RATING =
  /^(.{3,80}?)\s+(satisfactory|not rated|not inspected|not present|not applicable|needs? (?:evaluation|repair|attention|maintenance|service)|needs? further evaluation|marginal|serviceable|acceptable|deficient|defective|inspected|repair(?:s)? needed|monitor|maintenance|attention|healthy|safety (?:hazard|risk|concern)|new damage|no change|unchanged|worsened|degraded|damaged|missing)$/i;

/** A status an app prints in capitals at the right of an item ("HVAC Check RUNNING NORMALLY"). */
const ITEM_STATUS =
  /^(.{3,80}?)\s+(NO ISSUES(?: FOUND)?|CLEAR|SECURE|RUNNING NORMALLY|OPERATIONAL|FUNCTIONAL|WORKING|NOT WORKING|COLLECTED|PASS|FAIL|OK)$/;

/**
 * An item's line: its name, then its rating ("Water Heater Needs Evaluation"). The name starts
 * with a capital and says no verb ("The roof was sound and needs maintenance" is a sentence).
 */
function itemLine(line: string): RegExpExecArray | null {
  if (/[.!?:;]$/.test(line) || line.split(/\s+/).length > 12) return null;
  const m = ITEM_RATING.exec(line) ?? ITEM_STATUS.exec(line);
  if (!m || !/^[\p{Lu}\d]/u.test(m[1]!) || m[1]!.split(/\s+/).length > 9) return null;
  // "Dishwasher: Needs Repair": the name without its colon (said again between name and rating).
  m[1] = m[1]!.replace(/\s*:$/, '');
  return /\b(is|was|were|are|be|been|has|have|had|will|should|must|appears?|seems?)\b/i.test(m[1]!)
    ? null
    : m;
}

/** A Title Case word ("Floor"), not a unit or code ("BTU/hr", "AMP", "2x6"). */
function titleCase(word: string): boolean {
  return /^\p{Lu}\p{Ll}/u.test(word);
}

/** A word in capitals ("APPROACH", "TO"), not a code with figures ("RB02380X"). */
function allCapitals(word: string): boolean {
  return /^\p{Lu}[\p{Lu}&'’-]*$/u.test(word);
}

function capitalised(word: string): boolean {
  return /^[\p{Lu}\d]/u.test(word);
}

/**
 * The `Label: value` pairs of a grid line read as one line ("Service size: 100 Amps (240 Volts)
 * Main disconnect/service box rating: 125 Amps"): a label runs back from its colon to the
 * capitalised word that starts it (a run of Title Case words is one label), its value up to
 * the next label. Pairs that detail a finding stay with it; pairs without a value are dropped.
 * Null when the line holds no label. Pure.
 */
export function labelPairs(line: string): { subject: string | null; pairs: string[] } | null {
  const colons = [...line.matchAll(/(?<=[\p{L}\p{N})™®])\s?:+(?=\s|$)/gu)].map((m) => ({
    at: m.index,
    end: m.index + m[0].length,
  }));
  if (colons.length === 0) return null;
  const labels: { start: number; colon: number; end: number }[] = [];
  let floor = 0;
  for (const { at: colon, end } of colons) {
    const words = [...line.slice(floor, colon).matchAll(/\S+/g)];
    let first = -1;
    let lower = false;
    for (let i = words.length - 1; i >= 0 && words.length - i <= 8; i--) {
      const w = words[i]![0];
      if (capitalised(w)) {
        first = i;
        const before = words[i - 1]?.[0];
        // "Date and Time", "Type of Roof": Title Case words joined by a small word are one label.
        const joined =
          before !== undefined &&
          /^(and|of|&)$/i.test(before) &&
          titleCase(words[i - 2]?.[0] ?? '') &&
          words.length - (i - 2) <= 8;
        // A run of Title Case words is one label ("Floor Structure"), unless the label
        // already has lower-case words or is a word that labels alone ("Kitchen Task").
        // "COST APPROACH TO VALUE": a run of words in capitals is one label too.
        const capsRun = allCapitals(w) && before !== undefined && allCapitals(before);
        if (
          lower ||
          !before ||
          (!titleCase(before) && !joined && !capsRun) ||
          /[.:;]$/.test(before)
        )
          break;
        // …but "Effective Age", "Total Size": a word that says which one is of the label.
        if (SINGLE_LABEL.test(w) && !joined && !LABEL_MODIFIER.test(before)) break;
      } else if (/\p{L}/u.test(w)) {
        if (first >= 0 && !lower && /^(and|of|&)$/i.test(w)) continue;
        if (first >= 0) break;
        lower = true;
      }
    }
    // "% of Building Cost: 12.5%": a share of something is one label, from its sign on.
    for (let k = first - 1; k >= 1 && words.length - (k - 1) <= 8; k--) {
      if (/^of$/i.test(words[k]![0]) && words[k - 1]![0] === '%') {
        first = k - 1;
        break;
      }
      if (!capitalised(words[k]![0])) break;
    }
    // The value of the label before cannot be empty: leave it the first word.
    // "Borrower: Inspection Date: 03/20/2025" is a blank, then a date under its own label.
    if (
      first === 0 &&
      labels.length > 0 &&
      words.length > 1 &&
      capitalised(words[1]![0]) &&
      !(words.length === 2 && /^(date|number|no\.?|name)$/i.test(words[1]![0]))
    )
      first = 1;
    let start = first >= 0 ? floor + words[first]!.index : -1;
    if (start < 0 || colon - start > 60 || !/\p{L}/u.test(line.slice(start, colon))) continue;
    // "… estimated to be December 31, 2023, is: $1,305,000": a sentence's verb before its
    // colon, no label.
    if (/\b(is|are|was|were|be|been)\s*$/i.test(line.slice(start, colon))) continue;
    // "Sample West (Town A & Town B) Summary:": a label starts after a bracket's aside, not
    // inside it; "Board DB-2 (Unit 4, east wall) showed a hot joint:" has none. A bracket that
    // ends the label ("Final Value (Fee Simple):") leaves its start inside; the subject is tidied.
    const text = line.slice(start, colon);
    const closed = text.lastIndexOf(')');
    const after = text.slice(closed + 1);
    if (
      closed >= 0 &&
      after.trim() !== '' &&
      (text.match(/\)/g)?.length ?? 0) > (text.match(/\(/g)?.length ?? 0)
    ) {
      if (!/^\s*[\p{Lu}\d]/u.test(after)) continue;
      start += closed + 1 + (after.length - after.trimStart().length);
    }
    labels.push({ start, colon, end });
    floor = end;
  }
  if (labels.length === 0) return null;
  // "Uneven Pavers — Trip Hazard:": the dash before the label is said again when the subject
  // is shown with it.
  const subject =
    line
      .slice(0, labels[0]!.start)
      .replace(/\s*\d+\.\s*$/, '')
      .replace(/\s*[—–-]+\s*$/u, '')
      .trim() || null;
  // "… damage since check-in is present in 3 rooms: Bathroom 1 shows …": a colon inside a
  // sentence, not a grid (whose lines name their subject in a few words).
  if (subject && subject.split(/\s+/).length > 10 && !/[.!?]$/.test(subject)) return null;
  const pairs: string[] = [];
  // "Name: Sample Q Person: Name:": a form of two columns read across, the right one blank.
  // What comes before a colon, right before the label said again, is the left column's value.
  const named = (l: { start: number; colon: number } | undefined): string =>
    l ? line.slice(l.start, l.colon).trim().toLowerCase() : '';
  const widened = new Set<number>();
  for (let i = labels.length - 2; i >= 1; i--) {
    const blank = line.slice(labels[i]!.end, labels[i + 1]!.start).trim() === '';
    if (blank && named(labels[i + 1]) === named(labels[i - 1])) {
      labels.splice(i, 1);
      widened.add(labels[i - 1]!.start);
    }
  }
  labels.forEach((l, i) => {
    const label = line.slice(l.start, l.colon).trim();
    const next = labels[i + 1];
    const raw = line.slice(l.end, next?.start ?? line.length);
    // "… installation 1. Condition:": a finding's number before the next label is not a value.
    let value = (next ? raw.replace(/\s+\d{1,2}\.\s*$/, '') : raw).trim();
    if (widened.has(l.start)) value = value.replace(/\s*:$/, '');
    if (!value) return;
    if (DETAIL_LABEL.test(label) && pairs.length > 0)
      pairs[pairs.length - 1] += `; ${label}: ${value}`;
    else pairs.push(`${label}: ${value}`);
  });
  return pairs.length > 0 ? { subject, pairs } : null;
}

/** A line that names what follows (a short heading-like line without an ending stop). */
function labelLike(line: string): boolean {
  const words = line.split(/\s+/);
  return words.length <= 6 && line.length <= 48 && !/[.!?:;,]/.test(line) && /\p{L}/u.test(line);
}

/** A short value a label line is followed by: a number, a measure, a word or two. */
function valueLike(line: string): boolean {
  return line.length <= 60 && line.split(/\s+/).length <= 8 && !/:/.test(line);
}

/**
 * The lines of a document as written: a sentence hard-wrapped over several lines (a narrow
 * column beside a photo) joined back into one. A line continues the one before when that one
 * does not end a sentence and it starts in lower case. Tables and headings stay apart. Pure.
 */
export function logicalLines(text: string): string[] {
  const out: string[] = [];
  let prose = false;
  // Bullets run together on one line ("… wall. ● The Risk: …"): one line each, tables aside.
  const lines = text
    .split(/\n/)
    .flatMap((l) => (/^\s*\|/.test(l) ? [l] : l.split(/\s+[●•▪◦■][\u200b\s]+(?=\S)/u)));
  for (const raw of lines) {
    if (raw.trim() === '') continue;
    const structural = /^\s*(\||#{1,6}\s|[-*+•]\s|\d+[.)]\s)/.test(raw);
    const last = out.at(-1);
    // A sum's rounding ("Total Estimated Value: $1,754,088" then "Rounded to: $1,755,000") is
    // said with the sum it rounds.
    const rounded = /^\s*rounded(?: to)?:?\s*([$€£]?\s?\d[\d,.]*)\s*$/i.exec(raw);
    if (rounded && last !== undefined && !/^\s*\|/.test(last) && /\d\s*$/.test(last)) {
      out[out.length - 1] = `${last.trimEnd()}, rounded to ${rounded[1]!.trim()}`;
      continue;
    }
    if (
      prose &&
      !structural &&
      last !== undefined &&
      !/[.!?:;]\s*$/.test(last) &&
      /^\s*[\p{Ll}(]/u.test(raw)
    ) {
      out[out.length - 1] = `${last.trimEnd()} ${raw.trim()}`;
      continue;
    }
    out.push(raw);
    prose = !structural;
  }
  return out;
}

/** Words of two letters that join others ("type of well"): they name no kind of anything. */
const SHORT_FUNCTION_WORDS = new Set(
  'a an of to in on at by or as is if so no be up we us my me it'.split(' '),
);

/**
 * Words before a noun that say how much, how sure or where, not which one ("approximate
 * capacity", "nearest school", "inside panel room").
 */
const QUALIFIERS = new Set(
  (
    'approximate approx estimated total overall average typical current existing actual active ' +
    'nearest closest nearby largest biggest smallest highest lowest latest last first next ' +
    'inside outside near along across behind within beneath below above under over around ' +
    'through via per every'
  ).split(' '),
);

/**
 * Whether a fact names another of a kind asked: a word asked ("approach") after a word that is
 * not the one the question puts before it ("income" for "comparison"), and the question's word
 * named nowhere in the fact, what it is filed under or its section. Pure.
 */
function otherKind(
  text: string,
  kinds: readonly (readonly [asked: string, kind: string])[],
  words: ReadonlySet<string>,
  subject: ReadonlySet<string>,
  title: ReadonlySet<string>,
): boolean {
  if (!kinds.some(([t]) => termMatches(t, words))) return false;
  const seq = foldWords(text);
  return seq.some((w, k) => {
    const kind = kinds.find(([t]) => sameWord(t, w))?.[1];
    const before = seq[k - 1];
    if (
      !kind ||
      !before ||
      STOPWORDS.has(before) ||
      SHORT_FUNCTION_WORDS.has(before) ||
      QUALIFIERS.has(before) ||
      /^\d/.test(before)
    )
      return false;
    if (sameWord(kind, before)) return false;
    const named = [kind, ...(RELATED[kind] ?? [])];
    return ![words, subject, title].some((set) => named.some((n) => termMatches(n, set)));
  });
}

/** Words that name the opposite of each other: a fact naming one does not answer the other. */
const OPPOSITES: readonly (readonly [string, string])[] = [
  ['heating', 'cooling'],
  ['hot', 'cold'],
  ['interior', 'exterior'],
  ['inside', 'outside'],
  ['front', 'rear'],
  ['upper', 'lower'],
  ['upstairs', 'downstairs'],
  ['north', 'south'],
  ['east', 'west'],
  ['left', 'right'],
  ['supply', 'return'],
  ['incoming', 'outgoing'],
];

/** A scale's words one after another: the legend of a rating, not a rating. */
const LEGEND =
  /^\s*(?:(?:poor|fair|moderate|good|excellent|very good|low|medium|high|satisfactory|unsatisfactory|average|critical)(?:[\s,/|]+|$)){3,}$/i;

/**
 * A key to a report's ratings: the rating, a dash, what it means ("Repair Required - A defect
 * requiring remedial action.", "Satisfactory - No immediate action required.").
 */
const LEGEND_ENTRY =
  /^\s*(?:repair required|action required|urgent|monitor|satisfactory|unsatisfactory|serviceable|acceptable|marginal|deficient|defective|poor|fair|good|needs? (?:repair|attention|evaluation|maintenance|service)|safety (?:hazard|concern)|not inspected|not present|maintenance)\s+[-–—]\s+(?:a|an|the|no|not|any|item|items|component|components|requires?|needs?)\b/i;

/**
 * A finding's category and severity as an inspection program prints them under its title
 * ("recommendation / defect", "other / info", "Maintenance Item / limit"): they file the
 * finding; they do not say what was found.
 */
const CATEGORY_WORD =
  '(?:recommendations?|defects?|deficien(?:t|cy)|other|info|information|maintenance(?:[- ]items?)?|safety(?:[- ]hazards?)?|hazards?|warnings?|limits?|limitations?|monitor|minor|major|moderate|significant|cosmetic|general|notes?|observations?|items?)';
const CATEGORY = new RegExp(`^\\s*${CATEGORY_WORD}(?:\\s*/\\s*${CATEGORY_WORD})+\\s*\\.?$`, 'i');

/** A rating on a line of its own, under the item it rates. */
const RATING_ALONE =
  /^(repair required|action required|urgent(?: - action required)?|monitor|satisfactory|unsatisfactory|serviceable|acceptable|marginal|deficient|defective|poor|fair|good|needs? (?:repair|attention|evaluation|maintenance|service)|safety (?:hazard|concern))$/i;

/** A list's item: "1. Restrict …" (its dot escaped in Markdown), "- Seal …", "• Clear …". */
const LIST_ITEM = /^\s*(?:\d{1,2}\\?[.)]|\\?[-•*▪◦●]|\p{Ll}\))\s+/u;
/** A title over a list ("2.1 Basement / Parking Level"): its words capitalised, maybe numbered. */
const LIST_TITLE =
  /^(?:\d{1,2}(?:\.\d{1,2})*\.?\s+)?\p{Lu}[\p{L}'’-]*(?:\s+(?:\p{Lu}[\p{L}'’-]*|[&/–-]|and|of|the|or|in|on|to|for|\d{1,3}))*$/u;

/**
 * The premise a value is given on: as the property is, as it will be once built or repaired, as
 * its income will be once let. How a question asks it, and how a report says it.
 */
const PREMISES: ReadonlyArray<{ name: string; asked: RegExp; said: RegExp }> = [
  { name: 'is', asked: /\bas[- ]is\b/i, said: /\bas[- ]is\b/i },
  {
    name: 'completed',
    asked:
      /\bas[- ]completed?\b|\bupon completion\b|\b(?:once|when|after)\b.{0,40}\b(?:completed?|done|finished|built)\b/i,
    said: /\bas[- ]completed?\b|\bupon completion\b/i,
  },
  {
    name: 'repaired',
    asked: /\bas[- ]repaired\b|\bafter repairs?\b/i,
    said: /\bas[- ]repaired\b/i,
  },
  { name: 'stabilized', asked: /\bstabili[sz]ed\b/i, said: /\bstabili[sz]ed\b/i },
];

/** What sold, and at what price; what is offered for sale, and at what asking price. */
const SOLD = /\b(?:sold|sale prices?|sales prices?|sell for|closed)\b/i;
const OFFERED =
  /\b(?:offered for sale|currently (?:listed|offered)|list(?:ing)? prices?|asking prices?)\b/i;
const OFFERED_ASKED = /\b(?:list|listing|listed|asking|offered)\b/i;

/** A label's words that say how to reach someone ("E-mail" folds to "e" and "mail"). */
const CONTACT_LABEL_WORDS = ['contact', 'phone', 'email', 'mail', 'fax', 'telephone'];

/** A zoning district's code: "R40", "R-1", "RS-6", "I1 – Light Industrial". */
const ZONE_CODE = /^\s*\p{Lu}{1,3}-?\d{1,3}\p{Lu}?\b/u;

/** How a report's figures are made: what a measure counts, how its figures are shown. */
const METHOD =
  /^(?:counts|measures|ranks)\b|\b(?:are|is) (?:shown|expressed|given) (?:per|as)\b|\bon (?:the same|a fixed\b[^.]{0,40}) scale\b|\bscored (?:by|with|using)\b/i;

/** A sum written out in capitals with its figure: "ONE MILLION … DOLLARS ($1,182,000 R)". */
const AMOUNT_IN_WORDS = /^(?:[A-Z]+[\s-]+)+DOLLARS\s*\(\s*\$\s?\d[\d,.]*(?:\s*[A-Z])?\s*\)\.?$/;

/**
 * A sentence that names its subject only by a pronoun, after a connective or not ("It was last
 * serviced …", "Therefore, it is given the most weight …"): the sentence before names it.
 */
const PRONOUN =
  /^(?:(?:therefore|thus|hence|consequently|accordingly|as a result|however),?\s+)?(it|its|this|that|they|these|those|the unit|this unit)\b/i;

/** A sentence cut into cells ("Roof | definition | of | an | unsafe | building"): no row, no titles. */
function cutSentence(cells: readonly string[]): boolean {
  return cells.some((c) => /^(?:a|an|the|of|to|in|on|at|by|for|and|or|is|are)$/i.test(c));
}

/** Titles that say only what kind of cell a column holds: over them is a table's header indeed. */
const GENERIC_TITLE =
  /^(?:items?|descriptions?|details?|values?|notes?|comments?|remarks?|types?|status|conditions?|locations?|materials?|components?|systems?|results?|findings?|observations?|amounts?|quantity|qty|units?|dates?|categor(?:y|ies)|fields?|features?|subject|information|data|specifications?|characteristics|defects?|issues?|severity|priority|actions?)$/i;

/**
 * A table's first row that is a row and not titles, a label and its value ("| Property Type |
 * Retail | (Single Tenant) |" over "| Number of Stories | 2 | |"): the row under it is a label
 * and a short figure alone, the figure where the first row gives a word that titles nothing,
 * and the first row fills a column after them. Read as titles, every row said "Number of
 * Stories: Retail: 2". Pure.
 */
function headerIsRow(header: readonly string[], row: readonly string[]): boolean {
  if (header.length !== row.length || header.length < 3) return false;
  const [h0 = '', h1 = '', ...hRest] = header;
  const [r0 = '', r1 = '', ...rRest] = row;
  return (
    !cutSentence(header) &&
    /\p{L}{2}/u.test(h0) &&
    !/\d/.test(h0) &&
    !GENERIC_TITLE.test(h0) &&
    /\p{L}{2}/u.test(r0) &&
    !/\d/.test(r0) &&
    /\p{L}/u.test(h1) &&
    !GENERIC_TITLE.test(h1) &&
    !NAMING_HEADER.test(h1) &&
    /\d/.test(r1) &&
    r1.split(/\s+/).length <= 4 &&
    !MARK.test(r1) &&
    hRest.some((h) => h !== '') &&
    rRest.every((r) => r === '')
  );
}

/** A row of labels ("| Service Amperage: | Wiring Method: |"): the values are on the next row. */
function labelRow(cells: readonly string[]): boolean {
  const filled = cells.filter((c) => c !== '');
  return filled.length > 0 && filled.every((c) => /:$/.test(c));
}

/**
 * A row of labels each in a cell of its own, its values in the cells after it ("Recommended
 * Sales Strategy: | × As - Is | Repaired | Market Time: | 90-120 days"): one pair a label, its
 * values joined ("Market Time: 90-120 days"), or null for a row that is not so. Pure.
 */
function labelledCells(cells: readonly string[]): string[] | null {
  const filled = cells.filter((c) => c !== '');
  const isLabel = (c: string): boolean => /^\p{L}[^:]{1,40}:$/u.test(c);
  if (filled.length < 4 || !isLabel(filled[0]!)) return null;
  const out: string[] = [];
  let label: string | null = null;
  let values: string[] = [];
  for (const c of [...filled, null]) {
    if (c !== null && !isLabel(c)) {
      values.push(c);
      continue;
    }
    if (label !== null) {
      if (values.length === 0) return null;
      out.push(paired(label, values.join('; ')));
    }
    label = c;
    values = [];
  }
  return out.length >= 2 ? out : null;
}

/** A cell that starts with a label of its own: "Lot Size: 1.534 Acres". */
const OWN_LABEL = /^\p{L}[\p{L}\s'’/#.&()-]{0,40}:\s+\S/u;

/**
 * A label of two capitalised words or more and the one sum after it ("NET OPERATING INCOME
 * $ 41,250", "Total Building Cost $3,094,047.82"); not a row of sums ("Total Taxes $155,686
 * $154,123 …", one for each year).
 */
const CAPITALS_SUM =
  /(?<![\p{L}\p{N}])((?:\p{Lu}[\p{L}'&/-]*\s+){1,7}\p{Lu}[\p{L}'&/-]+)\s*\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d{2})?)(?![\d,])(?!\s*\$?\s?\d)/gu;

/** The facts of one document in reading order. Pure. */
export function factsOf(text: string, doc = 0): Fact[] {
  const facts: Fact[] = [];
  let header: string[] | null = null;
  let labels: string[] | null = null;
  let inTable = false;
  let heading: string | null = null;
  let pendingLabel: string | null = null;
  let pendingIsHeading = false;
  let block = 0;
  // The item whose "Observations:" (or other label alone) is being read, and that label.
  let item: string | null = null;
  let itemLabel: string | null = null;
  let itemRated = false;
  // The card a run of `Label: value` lines is printed on: the item named (and rated) on the line
  // above them ("Microwave NEW DAMAGE" over "Check-out note: Not working anymore").
  let card: string | null = null;
  // The subject a grid line named, for the `Label: value` lines under it; the grid's last fact.
  let gridSubject: string | null = null;
  let lastGridFact = -1;
  // A sentence that introduces what follows it ("… the following materials:").
  let lead: string | null = null;
  // The line a list is set under ("12.1 Immediate Actions — Within 48 Hours"): its items' subject.
  let listHead: string | null = null;
  // The last line said as prose when it was a short line of its own, which a list may follow.
  let headLine: string | null = null;
  // A table whose "header" is a row of label/value pairs ("| Effective Date | 09/20/2019 |
  // Assignment Reason | Purchase |"): every row says its pairs, a value under no label goes on
  // with the pair above it.
  let pairTable = false;
  // What the grid line right above a table named ("Sample West (Town A & Town B) Summary: …"
  // over "| Aspect | Details |"): the subject of the table's rows of two columns, when it is a
  // name ("Roofing" of "Roofing Type: …" is the start of a label).
  let tableSubject: string | null = null;
  // A table of one row under its "header" ("| Heating | Forced Warm Air | Natural Gas |" over
  // "| Cooling | Centralized |"): the first row may be as much a row, and says so too.
  let rowsUnderHeader = 0;
  const flushLoneHeader = (): void => {
    if (
      header &&
      rowsUnderHeader === 1 &&
      /^\p{Lu}/u.test(header[0] ?? '') &&
      header.filter((c) => c !== '').length >= 2 &&
      !cutSentence(header)
    ) {
      const row = rowFact(null, header);
      if (row) push(row, true, heading);
    }
    rowsUnderHeader = 0;
  };
  const pairAt = new Map<number, number>();
  // A column of prose beside the pairs ("The neighborhood is typical for area. The area" /
  // "around the subject …"): one text, said when the table ends.
  let pairNote = '';
  const flushPairNote = (): void => {
    if (pairNote) for (const t of splitSentences(pairNote)) push(t, false, heading);
    pairNote = '';
  };
  const pushPairs = (cells: readonly string[]): void => {
    if (cells.length % 2 === 1 && cells.at(-1)) pairNote = `${pairNote} ${cells.at(-1)}`.trim();
    for (let c = 0; c + 1 < cells.length; c += 2) {
      const label = (cells[c] as string).replace(/\s*:$/, '');
      const value = cells[c + 1] as string;
      const above = pairAt.get(c);
      if (label === '' && value !== '' && above !== undefined && facts[above]) {
        facts[above]!.text = `${facts[above]!.text} ${value}`;
        continue;
      }
      pairAt.delete(c);
      if (label === '' || value === '') continue;
      push(paired(label, value), true, heading);
      pairAt.set(c, facts.length - 1);
    }
  };
  const push = (said: string, labelled: boolean, subject: string | null): void => {
    // "Repair Total: Total: $0": a row's label ends in its column's title; said once.
    const t = labelled ? said.replace(/\b(\p{L}{3,}):\s+\1:(?=\s)/giu, '$1:') : said;
    if (t.length < 4 || FURNITURE.test(t)) return;
    if (!labelled) block++;
    facts.push({ doc, index: facts.length, text: t, labelled, subject, block });
    if (!labelled) block++;
  };
  // A line held to see what follows it: an item's rating, an item's text, or a line of its own.
  const pushHeld = (t: string): void => {
    const r = itemLine(t);
    if (r) {
      card = r[1]!.trim();
      push(`${card}: ${r[2]}`, true, heading);
    } else if (item && itemLabel) pushItemText(t);
    else push(t, false, heading);
  };
  // Text under an item's label alone: the item's value, or what is recommended for it.
  const pushItemText = (t: string): void => {
    if (!item) return push(t, false, heading);
    const label = /^recommend/i.test(itemLabel ?? '') ? `${item} (recommendation)` : item;
    if (`${label}: ${t}`.length <= MAX_FACT_CHARS) push(`${label}: ${t}`, true, heading);
    else for (const sentence of splitSentences(t)) push(`${label}: ${sentence}`, true, heading);
  };
  for (const raw of logicalLines(text)) {
    const listItem = LIST_ITEM.test(raw);
    if (!listItem) listHead = null;
    else if (listHead === null && headLine !== null) {
      listHead = headLine;
      // A title over the list is what its items are about, not a fact of its own.
      const last = facts.at(-1);
      if (LIST_TITLE.test(headLine) && last && !last.labelled && last.text === headLine)
        facts.pop();
    }
    const previousLine = headLine;
    headLine = null;
    const cells = tableCells(raw);
    if (cells) {
      pendingLabel = null;
      // A sentence introducing a table is said on its own; the table's rows are its facts.
      if (lead) push(lead, false, heading);
      lead = null;
      if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) continue; // the rule under a header
      if (labelRow(cells)) {
        // A grid set as a table: rows of labels, each over a row of values.
        labels = cells.map((c) => c.replace(/\s*:$/, ''));
        inTable = true;
        continue;
      }
      if (labels) {
        // "Lot Size: 1.534 Acres" under "Utilities:": a cell with a label of its own is the next
        // row of labels, and the one above was left blank.
        cells.forEach((c, i) => {
          if (c !== '' && labels?.[i])
            push(OWN_LABEL.test(c) ? c : paired(labels[i]!, c), true, heading);
        });
        labels = null;
        continue;
      }
      if (!inTable) {
        inTable = true;
        tableSubject =
          lastGridFact === facts.length - 1 && NAME_SUBJECT.test(gridSubject ?? '')
            ? gridSubject
            : null;
        pairTable = pairRow(cells);
        // Titles are all different: a first row that repeats a cell ("Year Built | 1956 |
        // Similar | Similar") is a row of a table whose header is elsewhere.
        // A figure under no title ("1,192 Sq.Ft. @ $ | 150.00 | 178,800") says the same; one
        // a title counts by ("Crime Rate per 1,000") is part of the title.
        const titles = cells.filter((c) => c !== '').map((c) => c.toLowerCase());
        header =
          new Set(titles).size < titles.length ||
          cells.some((c) => FIGURE.test(c.replace(PER_FIGURE, '')))
            ? null
            : cells;
        if (!pairTable && header) continue;
      }
      if (header && rowsUnderHeader === 0 && headerIsRow(header, cells)) {
        const row = rowFact(null, header);
        if (row) push(row, true, heading);
        header = null;
      }
      if (pairTable) {
        pushPairs(cells);
        continue;
      }
      const groups = header ? null : labelledCells(cells);
      if (groups) for (const g of groups) push(g, true, heading);
      else {
        // "| A value in line with the mean is well supported. | | Concluded Lease Rate | $13.30 |":
        // a sentence in a row's first cell is a remark of its own, not the label of the row's
        // pair after it.
        const filled = cells.filter((c) => c !== '');
        const remark =
          !header &&
          filled.length >= 3 &&
          /[.!?]$/.test(filled[0]!) &&
          filled[0]!.split(/\s+/).length >= 5;
        if (remark) push(filled[0]!, false, heading);
        // "| APPRAISER | SUPERVISORY APPRAISER |" over "| Name Sample Person | Name |": each
        // column is one party's, and so is each of its cells. A field's label alone ("Name",
        // "Signature"), where every cell of the row starts with it, is a field left empty.
        if (!remark && header && partyColumns(header)) {
          cells.forEach((c, i) => {
            const empty = !/\s/.test(c) && filled.every((o) => o.split(/\s+/)[0] === c);
            if (c !== '' && !empty && header?.[i] && c !== header[i])
              push(`${header[i]}: ${c}`, true, heading);
          });
          rowsUnderHeader++;
          continue;
        }
        const row = remark ? rowFact(null, filled.slice(1)) : rowFact(header, cells);
        // "| Weaknesses | Storm damage; fog |" under "| Aspect | Details |": about what the grid
        // line above the table named.
        const under = !remark && header?.length === 2 ? (tableSubject ?? heading) : heading;
        if (row) push(row, true, under);
      }
      rowsUnderHeader++;
      continue;
    }
    if (inTable) {
      block++;
      card = null;
      gridSubject = null;
    }
    inTable = false;
    flushPairNote();
    flushLoneHeader();
    pairTable = false;
    header = null;
    labels = null;
    const isHeading = /^\s{0,3}#{1,6}\s/.test(raw);
    const cleaned = cleanText(raw);
    if (!cleaned) continue;
    // "The deck has been constructed from the following materials:" then the first item: one
    // fact, for the sentence says nothing without it.
    const line: string = lead && !isHeading ? `${lead} ${cleaned}` : cleaned;
    if (lead && isHeading) push(lead, false, heading);
    lead = null;
    // "Ridge tiles, bay window" then "Repair Required" on its own line: the item's rating.
    const rated = facts.at(-1);
    if (RATING_ALONE.test(line) && previousLine !== null && rated?.text === previousLine) {
      rated.text = `${rated.text}: ${line}`;
      rated.labelled = true;
      continue;
    }
    // An item of an inspection app: its name (and rating) on a line, then "Observations:",
    // "Recommendations:" … each on its line with its text below. The text is said as the
    // item's ("Roof Covering Material & Condition: Metal."), its rating as a grid value is.
    if (!isHeading && LABEL_ALONE.test(line)) {
      if (pendingLabel && !pendingIsHeading) {
        const rated = itemLine(pendingLabel);
        if (!rated && item && itemLabel && itemRated) {
          // "Underground drainage" then "Photos:": the rated item's text, not an item.
          pushItemText(pendingLabel);
        } else {
          block++;
          item = rated ? rated[1]!.trim() : pendingLabel;
          itemRated = rated !== null;
          if (rated) push(`${item}: ${rated[2]}`, true, heading);
        }
      }
      pendingLabel = null;
      itemLabel = item && !/^(photo|image|picture)/i.test(line) ? line.replace(/\s*:$/, '') : null;
      continue;
    }
    // "STRUCTURE: FOUNDATION SETTLEMENT:" over its findings: a heading in capitals.
    if (
      !isHeading &&
      /:$/.test(line) &&
      !/\p{Ll}/u.test(line) &&
      /\p{Lu}{2}/u.test(line) &&
      line.split(/\s+/).length <= 8
    ) {
      if (pendingLabel && !pendingIsHeading) pushHeld(pendingLabel);
      pendingLabel = null;
      item = null;
      itemLabel = null;
      heading = line.replace(/^[^\p{L}\p{N}]+/u, '').replace(/\s*:$/, '');
      gridSubject = null;
      block++;
      continue;
    }
    if (!isHeading && itemLine(line)) {
      // An item's line, held until the line after shows whether labels follow it.
      if (pendingLabel && !pendingIsHeading) pushHeld(pendingLabel);
      pendingLabel = line;
      pendingIsHeading = false;
      itemLabel = null;
      continue;
    }
    if (item && itemLabel && !isHeading && !tableCells(raw) && !labelPairs(line)) {
      if (pendingLabel && !pendingIsHeading) pushHeld(pendingLabel);
      pendingLabel = null;
      if (labelLike(line)) {
        // A short line may be the next item's name: held until the line after says.
        pendingLabel = line;
        pendingIsHeading = false;
        continue;
      }
      pushItemText(line);
      continue;
    }
    if (isHeading || !itemLabel) {
      if (pendingLabel && !pendingIsHeading && item) {
        pushHeld(pendingLabel);
        pendingLabel = null;
      }
      item = null;
      itemLabel = null;
    }
    // "AFUE Rating" then "96.7": a label on its line and its value on the next.
    if (pendingLabel && valueLike(line) && !isHeading) {
      push(paired(pendingLabel, line), true, heading);
      pendingLabel = null;
      continue;
    }
    const held = pendingLabel && !pendingIsHeading ? pendingLabel : null;
    if (held) pushHeld(held);
    if (held && listItem) listHead = held;
    pendingLabel = null;
    if (isHeading || labelLike(line)) {
      if (isHeading) {
        heading = line;
        card = null;
        gridSubject = null;
        block++;
      }
      pendingLabel = line;
      pendingIsHeading = isHeading;
      continue;
    }
    const grid = line.length <= 2000 ? labelPairs(line) : null;
    if (grid) {
      // "EXHAUST FANS \ Range hood Condition: Parts damaged", then "Location: Kitchen" and
      // "Condition: Venting poor" on lines of their own: the lines go on with that subject,
      // and a detail ("Location: …") stays with the finding above it.
      if (grid.subject) gridSubject = grid.subject;
      // A short line right above a card's first pairs names it ("APPLIANCES \ Range" over
      // "Condition: hot surface light always on"), unless it repeats the value above it.
      const previous = facts.at(-2)?.text ?? '';
      // A title in capitals starts a new card ("LAST MARKET SALE & SALES HISTORY" after the
      // pairs under "LISTING INFORMATION").
      const titled =
        held !== null && !/\p{Ll}/u.test(held) && /\p{Lu}{2,}\s+\p{Lu}{2,}/u.test(held);
      if (held && (card === null || titled) && !itemLine(held) && !previous.endsWith(held))
        card = held;
      const subject = grid.subject ?? card ?? gridSubject ?? heading;
      for (const pair of grid.pairs) {
        const last = facts.at(-1);
        const detail = DETAIL_LABEL.test(pair.slice(0, pair.indexOf(':')).trim());
        // "Permitting Time: 1-2 months" names its own subject: a fact of its own.
        if (
          detail &&
          !grid.subject &&
          last &&
          facts.length - 1 === lastGridFact &&
          `${last.text}; ${pair}`.length <= MAX_FACT_CHARS
        ) {
          last.text = `${last.text}; ${pair}`;
          continue;
        }
        if (pair.length <= MAX_FACT_CHARS) {
          push(pair, true, subject);
          continue;
        }
        // "Zoning: M-1 – Light Industrial The light industrial zone is intended …": a label and
        // its value, then the paragraph that describes it, run on from the next line.
        const runOn = RUN_ON.exec(pair);
        if (runOn) {
          push(runOn[1]!.trim(), true, subject);
          for (const s of splitSentences(runOn[2]!)) push(s, false, subject);
          continue;
        }
        // "Sale 4: Sale 4 is located … This is a mostly square shaped parcel …": a comparable's
        // write-up, every sentence of it about the comparable.
        const about = COMPARABLE_LEAD.exec(pair)?.[1] ?? subject;
        for (const s of splitSentences(pair)) push(s, false, about);
      }
      lastGridFact = facts.length - 1;
      continue;
    }
    card = null;
    gridSubject = null;
    // "… APPRAISED VALUE OF SUBJECT PROPERTY $ 318,500 Date of Inspection …" (a form read as one
    // run of text): a label in capitals with its sum and no colon is a pair all the same.
    for (const m of line.matchAll(CAPITALS_SUM)) push(`${m[1]}: $${m[2]}`, true, heading);
    if (/:$/.test(line) && line.split(/\s+/).length >= 5 && !isHeading) {
      // "The slab is 150mm thick. The following defects were recorded:": the sentences
      // before the one that leads on are facts of their own.
      const sentences = splitSentences(line);
      for (const s of sentences.slice(0, -1)) push(s, false, heading);
      lead = sentences.at(-1) ?? line;
      continue;
    }
    // "… the appraiser's opinion of the final value is … reasonable." over "ONE MILLION …
    // DOLLARS ($1,182,000 R)": a sum written out in words is the sum of the sentence before.
    const sentenceBefore = facts.at(-1);
    if (
      AMOUNT_IN_WORDS.test(line) &&
      sentenceBefore &&
      !sentenceBefore.labelled &&
      /[.!?]$/.test(sentenceBefore.text)
    ) {
      sentenceBefore.text = `${sentenceBefore.text} ${line}`;
      continue;
    }
    let prior: string | null = null;
    // A list's number ("1.") is no sentence of its own.
    const sentences = withPromptsAnswered(
      splitSentences(line).filter((t) => !/^\(?\d{1,3}[.)]$/.test(t)),
    );
    // "• Budget for capital expenditures. Systems … can run $360,000 total.": a bullet's short
    // first sentence names what the rest of it is about.
    const lead0 = sentences[0] ?? '';
    const itemLead = listItem && sentences.length > 1 && lead0.length <= 60 ? lead0 : null;
    for (const s of sentences) {
      push(s, false, (s === lead0 ? null : itemLead) ?? listHead ?? heading);
      const last = facts.at(-1);
      if (prior && last?.text === s && PRONOUN.test(s)) {
        last.prior = prior;
        const before = facts.at(-2);
        if (before?.text === prior && !before.labelled && qualifies(s, prior)) before.next = s;
      }
      prior = s;
    }
    if (!listItem && line.length <= 90 && !/[.!?:;,]$/.test(line)) headLine = line;
  }
  flushPairNote();
  flushLoneHeader();
  if (pendingLabel && !pendingIsHeading) pushHeld(pendingLabel);
  if (lead) push(lead, false, heading);
  nameCards(facts);
  calculations(facts);
  return facts;
}

/**
 * A card printed as a name over its contact line ("Sample Inspections" over "4 Mill Rd, Sample
 * Town sample@sample.example"): the contact line is said as the name's, so the name goes with
 * its address and e-mail ("Sample Inspections: 4 Mill Rd …"), whatever the line before the name.
 */
function nameCards(facts: Fact[]): void {
  for (let i = 1; i < facts.length; i++) {
    const f = facts[i] as Fact;
    const before = facts[i - 1] as Fact;
    if (f.labelled || !CONTACT.test(f.text) || !/^\d/.test(f.text)) continue;
    const name = NAME_AT_END.exec(before.text)?.[1];
    if (name) f.text = `${name}: ${f.text}`;
  }
}

/** A sum's label: "Total", "Grand Total", "Total Value". */
const TOTAL_LABEL = /^\s*(?:grand\s+)?total(?:\s+value)?\s*$/i;
/** The words that lead into a calculation: "This is calculated as follows:". */
const CALCULATION_LEAD = /\bas follows\s*:/i;
/** Lines a calculation's items take at most, from its lead to its total. */
const CALCULATION_LINES = 6;

/**
 * A calculation set out under the sentence that says what it comes to ("The value once the works
 * are done is their cost added to the value as is. This is calculated as follows:", then "As Is:
 * $410,000", "Roof: 22,000", "Total: $432,000"): one fact, the sentence with every line of it to
 * its total ("… added to the value as is: As Is: $410,000; Roof: 22,000; Total: $432,000"), where
 * the lead and its first line were. A line that is a label alone ("Proposed Decks:") goes with
 * the line after it. Facts in reading order.
 */
function calculations(facts: Fact[]): void {
  facts.forEach((f, i) => {
    if (!f.labelled || !TOTAL_LABEL.test(factLabel(f)) || !/\d/.test(factValue(f))) return;
    for (let j = i - 1; j >= Math.max(0, i - CALCULATION_LINES); j--) {
      const led = facts[j]!;
      const at = CALCULATION_LEAD.exec(led.text);
      if (led.doc !== f.doc || (!at && !led.labelled && !/:$/.test(led.text))) return;
      if (!at) continue;
      // What is calculated: the lead's own sentence, or the sentence before a lead that says
      // nothing of it ("This is calculated as follows:").
      const own = led.text
        .slice(0, at.index)
        .replace(/\b(?:this|it) is(?: \w+)?\s*$/i, '')
        .trim();
      const before = facts[j - 1];
      const about =
        own.split(/\s+/).length >= 5 ? own : before && !before.labelled ? before.text : '';
      const lines = facts.slice(j, i + 1).map((g) => g.text);
      lines[0] = lines[0]!.slice(at.index + at[0].length).trim();
      if (!about || lines.slice(1, -1).some((t) => !/\d|:$/.test(t))) return;
      const items = lines
        .filter((t) => t !== '')
        .join('; ')
        .replace(/:; /g, ': ');
      led.text = `${about.replace(/[.,:\s]+$/, '')}: ${items}`;
      led.labelled = false;
      return;
    }
  });
}

interface Scored extends Fact {
  score: number;
  /** Share of the question's weight the fact (with its document title) matches. */
  coverage: number;
  /** Each question term's weight (the same for every fact of a turn). */
  weights: ReadonlyMap<string, number>;
  /** Question terms found in the fact itself. */
  matched: string[];
  /** A recommendation, for a question that asks what to do: it need not repeat the question. */
  recommends: boolean;
  /** A count of the thing "how many" asks about ("10 playgrounds"): it answers on its own. */
  counts: boolean;
  /**
   * Filed under a section named by what is asked ("Recommendation" for "What is the
   * recommendation?"): it answers though it does not repeat the question.
   */
  named: boolean;
  /**
   * A label that names what is asked, with a value after it ("Thermal Images – emissivity: 0.94"
   * for "What emissivity was set on the thermal camera?"): it answers though the question says
   * more words than the label.
   */
  labelAnswers: boolean;
  /** A reason, for a question that asks why ("… which prevented a comprehensive inspection"). */
  reason: boolean;
}

/** Forms of one word: "wall" and "walls", "crack" and "cracked"; not "heat" and "heater". */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  // Every form below keeps the word's first letters: most pairs end here.
  if (a.slice(0, 2) !== b.slice(0, 2)) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (droppedE(short, long)) return true;
  // "liability" and "liabilities", "property" and "properties".
  if (short.length >= 4 && short.endsWith('y') && /^(ies|ied)$/.test(long.slice(short.length - 1)))
    return long.startsWith(short.slice(0, -1));
  if (short.length >= 3 && long.startsWith(short)) {
    const suffix = long.slice(short.length);
    // "roof" and "roofing", "heat" and "heating"; not "condition" and "conditioning".
    if (/^(s|es|ed|d)$/.test(suffix) || (suffix === 'ing' && short.length <= 5)) return true;
  }
  // "current" and "currently": an adjective and its adverb.
  if (short.length >= 5 && long === `${short}ly`) return true;
  // "urgent" and "urgency", "vacant" and "vacancy": an adjective and its noun.
  if (/(ent|ant)$/.test(short) && long === `${short.slice(0, -1)}cy`) return true;
  // "covered" and "covering": two endings of one word.
  const a0 = inflected(a);
  if (a0 !== null && a0 === inflected(b)) return true;
  // "blocked" and "blockages", "front" and "frontage", "inspected" and "inspection": a noun
  // made of the word.
  const root = DERIVED.exec(long);
  if (!root || root[1]!.length < (/^age/.test(root[2]!) ? 4 : 5)) return false;
  return root[1] === short || (!DERIVED.test(short) && sameWord(root[1]!, short));
}

/** A noun made of a word by its ending: "block|age", "inspect|ion", "install|ation". */
const DERIVED = /^(\p{L}+?)(ages?|ations?|ions?|ments?)$/u;

/**
 * A word without its ending of tense or number ("covered", "covering" → "cover"; "zoned",
 * "zoning" → "zon"), or null. An -ing of a word longer than five letters makes a noun of its
 * own ("conditioning" is not "conditions").
 */
function inflected(word: string): string | null {
  const m = /^(\p{L}{3,}?)(ing|ed|es|s)$/u.exec(word);
  if (!m || /(ss|us|is)$/.test(word) || (m[2] === 'ing' && m[1]!.length > 5)) return null;
  // "zoned" and "zoning": the e a word drops before its ending.
  const stem = m[1]!.replace(/e$/, '');
  return stem.length >= 3 ? stem : null;
}

/** "face" and "facing", "leave" and "leaving": a final e dropped before -ing. */
function droppedE(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 4 && short.endsWith('e') && long === `${short.slice(0, -1)}ing`;
}

/** Acronyms property reports use without defining them ("GLA", "SF", "PSF"). */
const COMMON_ACRONYMS: ReadonlyMap<string, readonly string[]> = new Map([
  ['gla', ['gross', 'living', 'area']],
  ['sf', ['square', 'foot', 'feet']],
  ['psf', ['per', 'square', 'foot']],
  ['sqft', ['square', 'foot', 'feet']],
  ['avm', ['automated', 'valuation', 'model']],
]);

/**
 * A fact's words with the question's words an acronym in it stands for: "US AQI" says "air
 * quality index", "GFCI" says "ground fault circuit interrupter" when they are asked in that
 * order. An acronym is written in capitals ("Ltd" is no "long take delivered"), but for the
 * common ones of property reports (`COMMON_ACRONYMS`: "$75 sf/GLA"). Pure.
 */
function withAcronyms(
  words: Set<string>,
  text: string,
  terms: readonly string[],
  defined: ReadonlyMap<string, readonly string[]> = new Map(),
): Set<string> {
  // One the report defines ("overall capitalization rate (OAR)"): the words of its long form
  // that are asked, two of them at least.
  for (const [acronym, long] of defined) {
    // A common one in any case ("$75 sf/GLA"); one the report defines in capitals only.
    const written =
      COMMON_ACRONYMS.has(acronym) || new RegExp(`\\b${acronym.toUpperCase()}s?\\b`).test(text);
    if (!words.has(acronym) || !written) continue;
    const asked = terms.filter((t) => long.some((w) => sameWord(t, w)));
    if (asked.length >= 2) for (const t of asked) words.add(t);
  }
  for (let n = 3; n <= 4; n++) {
    for (let i = 0; i + n <= terms.length; i++) {
      const run = terms.slice(i, i + n);
      const acronym = run.map((t) => t[0]).join('');
      if (!words.has(acronym) || STOPWORDS.has(acronym)) continue;
      // A word of its own, not the start of a code ("CRA.0X00001", a licence number).
      if (
        new RegExp(
          `(?<![\\p{L}\\p{N}.-])${acronym.toUpperCase()}(?![.-]?[\\p{L}\\p{N}])`,
          'u',
        ).test(text)
      )
        for (const t of run) words.add(t);
    }
  }
  return words;
}

/**
 * The acronyms a text defines, each with the words it stands for: "net operating income (NOI)",
 * "overall capitalization rate (OAR)". The long form is found as Schwartz and Hearst's algorithm
 * finds it (PSB 2003): the shortest run of words before the parenthesis in which the acronym's
 * letters appear in order, the first at the start of a word. Pure.
 */
export function definedAcronyms(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // Each "(ABC)" first, then the words before it: one pass over the text.
  for (const m of text.matchAll(/\(\s*(\p{Lu}{2,6})s?\s*\)/gu)) {
    const acronym = m[1]!.toLowerCase();
    const words = text
      .slice(Math.max(0, m.index - 160), m.index)
      .split(/\s+/)
      .filter((w) => w !== '');
    const run: string[] = [];
    for (let k = words.length - 1; k >= 0 && /^[\p{L}-]+$/u.test(words[k]!); k--)
      run.unshift(words[k]!);
    const candidate = run.slice(-Math.min(acronym.length + 5, acronym.length * 2)).join(' ');
    const long = longForm(acronym, candidate.toLowerCase());
    if (long) out.set(acronym, foldWords(long));
  }
  return out;
}

function longForm(short: string, long: string): string | null {
  const alnum = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  let l = long.length - 1;
  for (let k = short.length - 1; k >= 0; k--) {
    const c = short[k]!;
    while (l >= 0 && (long[l] !== c || (k === 0 && alnum(long[l - 1])))) l--;
    if (l < 0) return null;
    l--;
  }
  const form = long.slice(long.lastIndexOf(' ', l) + 1);
  // As many words as letters at most, and more than one.
  const n = form.split(' ').length;
  return n >= 2 && n <= short.length ? form : null;
}

/** How far a place is: "Sample Yard (2.1 mi)", "0.5 miles away". */
const DISTANCE =
  /\(\s*\d+(?:\.\d+)?\s?(?:mi|miles?|km)\s*\)|\b\d+(?:\.\d+)?\s?(?:mi|miles?|km)\s+away\b/i;

/**
 * What a fact's signs say in words: "Flat No. 103", "Unit #4", "REPORT NO:2018-0001" say
 * "number"; a reading in degrees ("Hotspot: 28.8 °C") says "temperature"; a place's distance
 * ("(2.1 mi)") says "nearby".
 */
function withSignWords(words: Set<string>, text: string): Set<string> {
  if (/\b(?:no|nos)\.?:?\s?#?\s?\d|#\s?:?\s?[a-z]{0,3}\d/i.test(text)) words.add('number');
  if (DEGREES.test(text)) words.add('temperature');
  // "Superfund (3): Sample Yard (2.1 mi), …": how far a place is says how near it is.
  if (DISTANCE.test(text)) words.add('nearby');
  // "Sample Person and/or assigns" names a purchase agreement's buyer, who may assign it.
  if (ASSIGNS.test(text)) words.add('buyer');
  return words;
}

function termMatches(term: string, words: ReadonlySet<string>): boolean {
  if (words.has(term)) return true;
  // "reported" is asked, not "report": a word every report says matches only as itself.
  for (const w of words) if (!STOPWORDS.has(w) && sameWord(term, w)) return true;
  return false;
}

/** A value that says nothing is there: "N/A", "None noted", "Not applicable". */
const NO_VALUE =
  /^\s*(n\/?a|none( noted| observed| present)?|not applicable|not present|nil|-+)\.?\s*$/i;

/** A score as reports give one: a percentage, a figure with decimals, or points out of a total. */
const SCORE_VALUE = /\d\s?%|\b\d+\.\d+\b|\b\d+\s?(\/|out of)\s?\d+\b/i;

/**
 * What "how … ?" asks to be measured: how old, how many, how far … ; how developed ("How built
 * up is the neighborhood?"), a share ("approximately 75% developed").
 */
const MEASURES =
  'old|big|large|many|much|long|deep|thick|wide|tall|high|hot|cold|warm|far|developed';
/** A figure with a unit of length, area, time or share: "~30cm", "2.4 m", "13 years", "40 %". */
const MEASURED =
  /\d\s?(mm|cm|m|km|mi|ft|in|inch(es)?|feet|foot|metres?|meters?|miles?|kilomet(er|re)s?|sq\.? ?(m|ft)|sf|m2|m²|years?|yrs?|months?|days?|hours?|%|percent)\b|\d\s?(%|″|′|"|['’](?!\p{L}))/iu;
/** Words of a time. */
const TIME_WORDS = ['time', 'minutes', 'hours', 'days', 'weeks', 'months', 'years', 'period'];
/** Numbers written as words, two to twelve. */
const NUMBER_WORDS = 'two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';
/**
 * A time a figure measures ("less than 12 months"), or a number written as a word: "less than
 * six months" is as much a time as "6 months".
 */
const TIME_MEASURED = new RegExp(
  `(?:\\d|\\b(?:one|${NUMBER_WORDS}|eighteen|twenty|thirty))\\s?(years?|yrs?|months?|weeks?|days?|hours?|minutes?)\\b`,
  'i',
);
/** A question a number answers ("How old is the roof?"). */
const MEASURE_QUESTION = new RegExp(`\\bhow (${MEASURES})\\b`, 'i');

/** The most or least of figures: "the hottest temperature", "the maximum number". */
const EXTREMES = 'highest|lowest|hottest|coldest|maximum|minimum|max|min|peak';
const EXTREME = new RegExp(`\\b(${EXTREMES})\\b`, 'i');
/** The assessor's value, for taxes: "2022 Assessed Value", "assessment". */
const ASSESSED = /\bassess(?:ed|ment|ments|or|ors)?\b/i;
/** A limit a rule sets: "140 ft frontage minimum", "Max. height 35'". */
const LIMIT = /\b(?:minimum|maximum|max)\b/i;
/** A question about what a rule allows or requires. */
const LIMIT_ASKED =
  /\b(?:required|requires?|allowed|allows?|permitted|limits?|least|most|can|may)\b/i;

const QUANTITY_QUESTION = new RegExp(
  `\\b(how (${MEASURES})|what(?: is| was| are)?(?: the)?(?: (?:${EXTREMES}|average|mean|overall|total))? (size|number|year|age|capacity|amperage|rating|temperature|r-?value|efficiency|afue|seer|voltage|cost|price|depth|thickness)|when (was|were|did)|age of|year)\\b`,
  'i',
);
/**
 * A section printed after the report as reference, named so: "Attachments", "Exhibit B",
 * "Appendix A Inspection Photographs", "ADDENDA" (not "Roof Deck Attachment").
 */
const APPENDIX =
  /^\s*(?:[\dA-Z]{1,3}[.)]?\s+)?(?:appendix|appendices|attachments?|exhibits?|addend(?:a|um)|annex(?:es)?)\b/i;

/** A reason given: "because of its age", "due to the lack of rental data". */
const REASON =
  /\b(?:because|due to|owing to|as a result of|since the|so that|in order to|therefore|the reason|the purpose)\b/i;

/**
 * Why a thing could not be seen or done, said without "because": "covered with an outdoor
 * carpet material, which prevented a comprehensive inspection", "concealed by stored items".
 */
const HINDERED =
  /\b(?:prevent(?:ed|s)?|preclud(?:ed|es)|obstruct(?:ed|s|ion)?|conceal(?:ed|s)?|covered (?:by|with)|blocked|inaccessible|no access|not accessible|locked)\b/i;

/** A negation: what was not done, not found, not present. */
const NEGATION = /\b(?:not|never|no|none|without)\b|n['’]t\b/i;

/** "What is the property section score?": a score is asked for by its name. */
const SCORE_QUESTION = /^\s*(?:what|which)\b.*\bscores?\b/i;
/**
 * "What capitalization rate was applied?": a rate is a figure ("Capitalization Rate: 10.61%").
 * So is a vacancy, an allowance or a discount ("What vacancy and credit loss was applied?").
 */
const RATE_QUESTION =
  /^\s*(what|which)\b.*\b(rates?|ratios?|percentages?|yields?|vacancy|allowance|discount)\b/i;
const KIND_QUESTION =
  /\b(what (kind|type|brand|make|material|sort)|made of|what is the .{0,40}(type|material|brand|make|covering|cladding|system))\b/i;

/** Materials of buildings: what "what is it made of / covered with" asks for. */
const MATERIAL_WORDS = new Set(
  (
    'concrete block brick stone timber wood wooden vinyl aluminum aluminium asphalt shingle ' +
    'shingles tile tiles slate metal steel copper plastic pex abs pvc cpvc galvanized iron ' +
    'cast fiberglass fibreglass glass stucco plaster drywall gypsum cedar pine plywood osb ' +
    'masonry poured cement composite composition membrane bitumen rubber epdm mineral wool ' +
    'cellulose batt batts foam polybutylene lead clay'
  ).split(' '),
);

/** A date: "19 July 2026", "May 28, 2026", "11-02-2026", "2026-02-11". */
const DATE_VALUE =
  /\b(\d{1,2}(st|nd|rd|th)? (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{4}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(st|nd|rd|th)?,? \d{4}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2})\b/i;

/** Every date of a text (`DATE_VALUE`, global). */
const DATE_VALUES = new RegExp(DATE_VALUE.source, 'gi');

/** Whether a value is a date and nothing else ("08/19/2008", "May 28, 2026"). */
function onlyDate(value: string): boolean {
  return DATE_VALUE.test(value) && value.replace(DATE_VALUES, '').replace(/[\s,;:.–-]/g, '') === '';
}

/** Labels of the people a report names: who inspected, scanned, surveyed, prepared it. */
const PERSON_LABEL =
  /\b(inspector|inspected by|thermographer|surveyor|surveyed by|engineer|technician|specialist|assessor|valuer|appraiser|agent|prepared by|reviewed by|author|consultant|certifier|client|owner|landlord|tenant|borrower|buyer|purchaser|seller|completed by|signed by|written by|performed by|conducted by)s?\b/i;

/** A header of parties side by side ("| APPRAISER | SUPERVISORY APPRAISER |"): each a role. */
function partyColumns(header: readonly string[]): boolean {
  const titles = header.filter((c) => c !== '');
  return titles.length >= 2 && titles.every((t) => PERSON_LABEL.test(t) && !/\d/.test(t));
}

/** Words of a price paid: what a sale or purchase cost, not what something is worth. */
const PAID = /\b(paid|pay|price[ds]?|purchased?|sold|sale|bought|cost)\b/i;

/** What a date that names nothing else asked keeps of its score, for "when". */
const ONLY_WHEN = 0.6;
/** Parties to a report, not its authors: the client, the owner, the buyer … */
const PARTY_ROLE =
  /\b(client|owner|landlord|tenant|borrower|buyer|purchaser|seller|lender|for)s?\b|\b(owns|owned|buying|selling|bought|sold)\b/i;
const PARTY_ROLES = new RegExp(PARTY_ROLE.source, 'gi');
/** Whether a label names a party and no one else ("Client", not "Client / Inspector"). Pure. */
function namesOnlyParty(label: string): boolean {
  return PARTY_ROLE.test(label) && !PERSON_LABEL.test(label.replace(PARTY_ROLES, ' '));
}
/** A deed asked of someone: "who carried out / did / prepared / inspected …". */
const DEED =
  /\bwho\s+(?:has\s+|have\s+)?(?:carried|did|conducted|performed|prepared|completed|inspected|surveyed|appraised|signed|wrote|assisted|reviewed|undertook|made the)\b/i;

/** "Which lender / client / appraiser …": a question of who, by the party's role. */
const WHICH_PARTY = new RegExp(
  `^\\s*which (?:${PERSON_LABEL.source}|\\b(?:lender|bank|insurer)\\b)`,
  'i',
);

/**
 * A person named in a sentence: "prepared by Er. Sample Engineer", "Thermographer: Ms. Sample
 * Person"; or a party by its role: "the appraiser's client: Sample Savings Bank".
 */
const PERSON_NAMED =
  /\b(?:by|[Ii]nspector|[Cc]lient|[Tt]hermographer|[Ss]urveyor|[Ee]ngineer|[Aa]ssessor|[Vv]aluer|[Tt]echnician|[Nn]ame)\s*:?\s+(?:(?:Mr|Mrs|Ms|Mx|Dr|Er|Prof)\.?\s+)?\p{Lu}[\p{Ll}'-]+\s+\p{Lu}[\p{Ll}'-]+/u;

/** A thing of a role's ("APPRAISER'S CERTIFICATION"), not the role; its name is the role's. */
const POSSESSED = /\b\p{L}+['’]s\s+(?!names?\b)\p{L}+/giu;

/** A person's name as a value: "Sample Person", "Sample Q. Person". */
const PERSON_VALUE =
  /^\p{Lu}[\p{Ll}'-]+(?:\s+\p{Lu}\.?)?(?:\s+\p{Lu}[\p{Ll}'-]*\p{Ll}[\p{Ll}'-]*){1,2}$/u;

/**
 * A role's value that names no one: a qualifier of the role ("APPRAISER: SUPERVISORY"), a note
 * in lower case ("(only if required)"), or an instruction in capitals ("APPRAISERS: PLEASE
 * PROVIDE FEES FOR BOTH STANDARD AND RUSH"). Pure.
 */
function namesNoOne(value: string): boolean {
  const v = value.trim();
  if (/^[\p{Ll}\s,;()-]+$/u.test(v)) return true;
  if (/^(supervisory|primary|secondary|trainee|reviewing|review|co-?signing)$/i.test(v))
    return true;
  return !/\p{Ll}/u.test(v) && /\b(PLEASE|PROVIDE|MUST|SHALL)\b/.test(v);
}

/**
 * A card's line under a name: a role in its first few words, then little else ("Listing
 * Specialist Sample Realty"); not a sentence ("The appraiser certifies …").
 */
const ROLE_FIRST = new RegExp(
  `^\\s*(?!(?:the|a|an|this|that|these|those|our|we)\\b)(?:\\p{L}+\\s+){0,2}${PERSON_LABEL.source}`,
  'iu',
);
/** Words a card's line under a name has at most. */
const CARD_LINE_WORDS = 8;

/** Words of a firm's name: a firm named after "by" is no person. */
const FIRM =
  /\b(ltd|pvt|inc|llc|llp|plc|gmbh|limited|consultants?|solutions|services|company|co|group|corp|corporation|industries|industrial|associates)\b/i;

/** A word of a name, capitalised: "Sample", "O'Neil", "B&B". */
const NAME_WORD = "\\p{Lu}[\\p{L}&'-]*";
/** Contact details: an e-mail address or a website. */
const CONTACT = /\S+@\S+\.\p{L}{2,}|\bwww\.\S+/u;
/** A firm's card: a capitalised name, then its e-mail address or website. */
const FIRM_CARD = new RegExp(`^${NAME_WORD}(?:\\s+${NAME_WORD})*\\s*:.*(?:${CONTACT.source})`, 'u');

/**
 * Whether a text denies a word asked: a negation (`NEGATION`: no, not, none, never, without) up
 * to four words before it ("there are no applicable overlay … districts"). Pure.
 */
function deniesAsked(text: string, matched: readonly string[]): boolean {
  const words = foldWords(text);
  return words.some(
    (w, i) =>
      NEGATION.test(w) &&
      words.slice(i + 1, i + 5).some((v) => matched.some((t) => sameWord(t, v))),
  );
}

/**
 * Whether a grid row's value leaves the subject's cell (the first) empty (`NO_VALUE`: "N/A",
 * "none", a dash) and gives a figure in each of three cells or more after it: the comparables'.
 * Pure.
 */
function noSubjectCell(value: string): boolean {
  const [first = '', ...rest] = value.split(';');
  const empty = NO_VALUE.test(first) || first.trim() === '–';
  return empty && rest.length >= 3 && rest.every((c) => /\d/.test(c));
}

/** A sentence's start before a colon: an article or pronoun, later a verb (must, shall, is …). */
const CLAUSE_LEAD =
  /^\s*(?:the|this|these|each|every|an?|we|i|you)\b.*\b(?:must|shall|should|will|may|is|are)\b/i;

/** A street address: a house number, capitalised words, the street's kind ("124 Oak Street"). */
const STREET_ADDRESS =
  /\b\d{1,6}\s+(?:\p{Lu}[\p{L}'.-]*\s+){1,4}(?:Street|St|Road|Rd|Avenue|Ave|Drive|Dr|Lane|Ln|Boulevard|Blvd|Court|Ct|Way|Place|Pl|Crescent|Terrace|Close|Circle|Parkway|Highway|Hwy)\b/u;

/** A value that is a street address and nothing else: a photo's caption ("Garage: 124 Sample Ave"). */
const ADDRESS_ONLY = new RegExp(`^\\s*${STREET_ADDRESS.source}\\.?\\s*$`, 'u');

/** A name of capitalised words ending a line, or all of it: a firm's or a person's. */
const NAME_AT_END = new RegExp(`(?:^|:\\s+)(${NAME_WORD}(?:\\s+${NAME_WORD}){0,4})$`, 'u');

/** What held before and no longer: "prior to this sale", "the previous owner", "had been". */
const FORMER = /\b(prior to|previous(ly)?|former(ly)?|had been|until)\b/i;
/** An owner named: "under the ownership of Sample Family Trust", "owned by Sample Person". */
const OWNED_BY = /\b(?:ownership of|owned by|vested in)\s+\p{Lu}/u;

/** A person with their role in brackets: "Sample Person (purchaser)". */
const PERSON_IN_ROLE = new RegExp(
  `\\p{Lu}[\\p{Ll}'-]+\\s+\\p{Lu}[\\p{Ll}'-]+\\s*\\((?:${PERSON_LABEL.source})\\)`,
  'u',
);

/** How a purchase agreement names its buyer: "Sample Person and/or assigns". */
const ASSIGNS = /^\p{Lu}[\p{L}'. -]+ and\/or (?:its |their |his |her )?assigns?\b/u;

/** A person named with a role in brackets: "Sample Person (purchaser)"; the role. */
const NAMED_ROLE = /\p{Lu}[\p{Ll}'-]+\s+\p{Lu}[\p{Ll}'-]+\s*\((\p{L}+)\)/gu;

/**
 * A letter that engages the person it is addressed to for the work ("Dear Sample Person, this
 * letter confirms your engagement to prepare an appraisal …"): the person, the letter's words
 * after the name, and the work.
 */
const ENGAGED =
  /\bDear:?\s+((?:(?:Mr|Mrs|Ms|Mx|Dr)\.?\s+)?\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}\.)?\s+\p{Lu}[\p{L}'-]+)\b[,:]?\s*([^.]{0,120}?\byour engagement to (?:prepare|perform|complete|conduct|carry out) (?:an?|the) (\p{L}+)[\s\S]*)/u;

/** Whether a deed asked and a work are one ("appraised" and "appraisal", "inspected" and "inspection"). */
function sameDeed(deed: string, work: string): boolean {
  return deed.length >= 6 && deed.slice(0, 6) === work.toLowerCase().slice(0, 6);
}

/** Whether a sentence names a person: "by Er. Sample Engineer", not "by Sample Industrial Ltd.". */
function namesPerson(text: string): boolean {
  if (PERSON_IN_ROLE.test(text)) return true;
  const m = PERSON_NAMED.exec(text);
  return m !== null && !FIRM.test(text.slice(m.index, m.index + m[0].length + 30));
}

/** A time from now, as "when should …" is answered: "in 12 months", "within the next 3 months". */
const DURATION =
  /\b(in|within|every|after|before)( the next| the coming)? \d+ ([a-z]+ )?(days?|weeks?|months?|years?)\b|\b(annually|yearly|every year)\b/i;

/** A time back from now: "one to five years ago", "3 months ago", "last year". */
const AGO =
  /\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)(?: to (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty))? (?:days?|weeks?|months?|years?) ago\b|\blast (?:year|month|week)\b/i;

/** An event named as its date's: "the date of last inspection". */
const DATE_OF = /\bdates? of (?:the |last |its |first )?(\p{L}+)/giu;
/** An event named before its date: "the closing date", "Inspection Date". */
const EVENT_DATE = /(\p{L}+) dates?\b/giu;

/** The events a text names the date of: "the date of last inspection", "the closing date". Pure. */
function datedEvents(text: string): string[] {
  const of = [...text.matchAll(DATE_OF)].map((m) => m[1]!);
  const before = [...text.matchAll(EVENT_DATE)].map((m) => m[1]!);
  return [...of, ...before]
    .map((w) => w.toLowerCase())
    .filter((w) => !/^(the|a|an|this|that|its|of)$/.test(w));
}

/** Whether a fact says when: a date, a year, a time from now or back from now. */
function saysWhen(text: string): boolean {
  return (
    DATE_VALUE.test(text) ||
    YEAR.test(text.replace(NAMED_YEAR, '')) ||
    DURATION.test(text) ||
    AGO.test(text) ||
    SEASON.test(text)
  );
}

/**
 * A year that names a law, a standard or a bulletin ("Building Act 1991", "NZS4306:2005",
 * "TB FH 2021-02"), or that a record's number starts with ("Report No: 2018-0001", "Permit
 * #2019-114"), not a time.
 */
const NAMED_YEAR =
  /\b(?:Act|Code|Regulations?|Standards?|Rules|Bylaws?)\s+(?:of\s+)?(?:1[89]|20)\d{2}\b|\b\p{Lu}{2,6}\s?\d{3,5}:(?:1[89]|20)\d{2}\b|\b\p{Lu}{2,6}\s(?:1[89]|20)\d{2}-\d{1,3}\b(?![-/.]\d)|(?:\b[Nn][Oo]s?\.?|#)\s?:?\s?#?\s?(?:1[89]|20)\d{2}\b/gu;

/** A time from now: "in 12 months", "within the next 3 years", "every 5 years". */
const AHEAD =
  /\b(in|within|every|after)\s+(the\s+next\s+)?(\d+|one|two|three|six|twelve)(\s*(-|to)\s*\d+)?\s+(days?|weeks?|months?|years?)\b/i;

/** A condition a rule applies on: "if within 3000 ft of saltwater", "more than 100 spaces". */
const CONDITION_CLAUSE =
  /\b(if|unless|whenever|where(?= (the|a|an|it|they)\b))\s+\p{L}|\b(more|less|fewer|greater) than \d|\bexceeds?\b/iu;

/** An amount per unit, as rents and rates are given: "$13.40/SF/YR", "$1,250 per month", "$75psf". */
const PER_UNIT =
  /[$€£]\s?\d[\d,.]*\s*(?:(?:\/|per\s+)\s*(?:sf|sq\.?\s?ft|square foot|ft|month|mo|yr|year|annum|week|unit)\b|psf\b)/i;

/** Two captions of one series read as a label and its value: "Restroom 1: Restroom 2". */
const CAPTION_PAIR = /^(\p{L}[\p{L}' -]*?)\s*\d{1,3}\s*:\s*\1\s*\d{1,3}\.?$/iu;

/** Twelve words or more, nearly all in capitals: a drawing's or a map's labels. Pure. */
function drawingText(text: string): boolean {
  const words = text.match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  if (words.length < 12) return false;
  const capitals = words.filter((w) => w.length > 1 && w === w.toUpperCase()).length;
  return capitals >= 0.85 * words.length;
}

/** A standard by its code: "NZS4306:2005", "AS 4349.1", "ASTM E2018". */
const STANDARD_CODE = /\b\p{Lu}{2,6}\s?\p{Lu}?\d{3,5}(?:[.:]\d+)?\b/u;

/** A time of year or weather, as "when does it get worse?" is answered ("during monsoon"). */
const SEASON =
  /\b(during|in|after|before|through) (the )?(monsoons?|winters?|summers?|spring|autumn|fall|wet season|dry season|rainy season|rains?|rainfall|heavy rain|storms?|freezing weather|cold weather|hot weather|snowmelt)\b/i;

/** The events of making a report, whose dates a report's header gives. */
const REPORT_EVENT =
  /\b(inspection|inspected|report|survey|surveyed|issued?|printed|prepared|generated|created|assessment|visit(?:ed)?|valuation)\b/i;

/** A temperature reading: "28.8 °C", "72°F", "-3 ºC", "52.3 deg C". */
const DEGREES =
  /\d\s?[°º]\s?[CF]?\b|\d\s?[°º](?!\S)|\d\s?deg(?:rees)?\.?\s?(?:C|F|Celsius|Fahrenheit)\b/;

/** A year, as a when-question is answered ("prior to 1991", "built in 1969"). */
const YEAR = /\b(1[89]|20)\d{2}\b/;

/** A number that only names a figure, table or place ("Fig 4.1", "Zone R2"): no quantity. */
const REFERENCE =
  /\b(fig(ure)?|table|photo(graph)?|image|section|page|item|zone|appendix|column|circuit|comparables?|comps?)\.?\s*[\p{L}\d.-]*\d[\p{L}\d.-]*/giu;

/** An amount of money: "$99", "Rs. 1,75,93,200", "AED 5,900". */
const CURRENCY = /[$€£₹¥]\s?\d|\b(rs|inr|usd|aed|eur|gbp|cad|aud|nzd|chf)\.?\s?\d/i;

/** A value that is only a rating of a grid: it answers how a thing was found, not what it is. */
const RATING_VALUE =
  /:\s*(serviceable|satisfactory|acceptable|marginal|poor|good|fair|review|comment|inspected|not inspected|not rated|not present|not applicable|not operated|needs? (?:further )?(?:evaluation|repair|attention|maintenance|service)|deficient|defective|monitor|maintenance|attention|healthy|repair|no issues(?: found)?|clear|secure|running normally|operational|functional|working|not working|pass|fail|ok|s|r|c|np|ni|no)[\s,.;]*$/i;

/** A question about how a thing was found, which a rating answers. */
const CONDITION_QUESTION =
  /\b(condition|state|shape|rated|rating|satisfactory|serviceable|good|okay|ok|working|work|works|functional|functioning|inspected|problems?|issues?|wrong|defects?|damaged?|concerns?|repairs?|needs?)\b/i;

/**
 * "What was the credit for?": a purpose asked. "What was it listed for?", "What is it best
 * suited for?" ask a price or a use, which other rules read.
 */
const PURPOSE_QUESTION =
  /^\s*what (?:was|were|is|are)\b(?!.*\b(?:listed|sold|sell|rented|leased|priced|paid|valued|insured|suited|used|known|zoned|responsible|required|needed|best)\b)[^?]*\bfor\?*\s*$/i;
/** A purpose said: what a thing went towards or was meant to do. */
const PURPOSE_FACT =
  /\b(?:towards?|in order to|so that|to (?:cover|pay|repair|replace|fix|fund)|for (?:the )?(?:repairs?|replacement|cost|purchase|installation) of)\b/i;

/** A place for cars, said with the word a plot of land is said in. */
const PARKING_LOT = /\b(?:parking|car)\s+lots?\b/gi;

/** "in order to", "in order that": a purpose said, nothing ordered. */
const IN_ORDER = /\bin order (?=to|that|for)\b/gi;
/** "in good condition for its age", "normal for the roof's age": a measure, no age given. */
const FOR_ITS_AGE = /\b(?:for|given|considering) (?:its|their|the \p{L}+['’]s?) age\b/giu;

/**
 * A noun that points back to what was said before it ("This condition may lead to water
 * intrusion"): it is no answer to a question about a condition or an issue.
 */
const BACK_REFERENCE =
  /\b(?:this|that|these|those|such)\s+(?:conditions?|issues?|problems?|concerns?|situations?)\b/gi;

/**
 * A sentence that points to what follows it ("The 2023 assessment and taxes are shown below.",
 * "… concluded as follows:"): the table or list after it says the figures; the sentence does not.
 */
const FORWARD_REFERENCE =
  /\b(?:as follows|(?:is|are|were|is being) (?:shown|summari[sz]ed|listed|presented|detailed|set out) below|shown below|the following (?:table|information|chart|grid|list|summary)\b)/i;

/** Words that ask for a finding without naming what it is about. */
const FINDING_FRAME = /^(wrong|problems?|issues?|defects?|concerns?|found|damages?)$/;

/** A question that asks what to do about something. */
const ADVICE_QUESTION =
  /\b(how (should|do|can|could|would|to) .{0,60}\b(repair|repaired|fix|fixed|address|addressed|correct|corrected|resolve|resolved|remedy|remedied|treat|treated)|what (should|do) (i|we) do|what .{0,40}\bshould be (used|installed|fitted|done)|recommend(ed|ation|ations)?)\b/i;

/** The word an advice question asks with, which says what kind of answer, not about what. */
const ADVICE_FRAME = /^(recommend|recommends|recommended|recommendation|recommendations|advice)$/;

/** A sentence that gives advice ("It is advised to engage a certified pest control company"). */
const ADVISED =
  /\b(?:is|are) (?:advised|recommended)\b|\brecommend(?:s|ed)? (?:that|to|a|an|the)\b/i;

/** An instruction, as recommendations are written ("Seal the crack and repaint"). */
const INSTRUCTION =
  /^(repair|replace|seal|clear|clean|install|remove|re-?lay|relay|secure|fasten|service|have|hire|contact|consult|monitor|add|apply|caulk|paint|repaint|regrade|extend|adjust|inject|fill|patch|correct|upgrade|trim|cover|insulate|test|check|evaluate|provide|reseal|re-?secure|re-?attach|rebuild|reinstall|find|locate|investigate|determine|ensure|keep|reduce|improve|re-?check|confirm)\b/i;

/** Labels of a finding that name no part of the house ("The Issue: …"). */
const FINDING_LABEL =
  /^(the |[\p{L}-]+ ){0,2}(issues?|problems?|findings?|observations?|comments?|notes?|descriptions?|details?|remarks?|defects?|risks?|recommendations?)$/iu;

const FOCUS = new RegExp(
  `\\b(?:how (${MEASURES})|who (?:made|manufactured|makes)|what(?:'s| is| was| are| were)?(?: the| a| an)? ([\\p{L}\\s'’-]{3,})|(where)|(when|how soon)|who (?:are|were) the ([\\p{L}\\s'’-]{3,}))\\b`,
  'iu',
);
/** A verb that ends a question after its noun phrase ("What lodging taxes apply?"). */
const PHRASE_VERB =
  /^(?:apply|applies|exist|exists|remain|remains|include|includes|cover|covers|require|requires|affect|affects|mean|means|need|needs|show|shows|say|says|happen|happens|matter|matters|involve|involves)$/i;
/** Verbs of doing, which a report says in words of its own ("carried out", "conducted"). */
const DOING =
  /^(?:carry|carried|carries|conduct|conducted|conducts|perform|performed|performs|do|did|does|done|complete|completed|undertake|undertook|undertaken)$/;
/** A noun that frames what it counts or measures ("number of", "amount of"). */
const COUNT_FRAME = /^(?:number|amount|count|total|quantity|percentage|share|proportion)$/i;
/** Words that say which count ("the maximum number of …"), not which number ("serial number"). */
const COUNT_QUALIFIER =
  /^(?:maximum|minimum|max|min|total|average|approximate|estimated|exact|overall)$/i;
/** Words that end the noun phrase of "what is the … ?". */
const PHRASE_END =
  /^(of|for|per|in|on|at|to|with|by|from|during|after|before|since|between|near|under|over|than|when|while|does|do|did|is|are|was|were|has|have|had|made|used|located|installed|and|or)$/i;

/** One of several alike, named by a letter or number: "Block B", "Unit 4", "Flat 2A". */
const PLACE_NAME =
  /\b([Bb]lock|[Uu]nit|[Bb]uilding|[Ff]lat|[Aa]partment|[Ll]ot|[Pp]lot|[Bb]ay|[Ww]ing|[Tt]ower|[Pp]hase|[Ll]evel|[Zz]one|[Aa]rea)\s+([A-Z]{1,2}|\d{1,3}[A-Z]?)\b/g;

/** A pattern of a word in either case of each letter ("block" → "[bB][lL]…"). */
function anyCase(word: string): string {
  return [...word].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join('');
}

/** A table of contents: numbered section titles one after another, or dot leaders. */
const CONTENTS = /(\b\d{1,2}\.\d{1,2}\s+\p{Lu}[^.]{3,80}?){3,}|\.{6,}\s*\d/u;

/** An appraisal's adjustment of its comparables. */
const ADJUSTMENT = /\badjust(ed|ments?|ing)?\b/i;

/** Text a form prints where something of the report was to go. */
const PLACEHOLDER =
  /\bthis is where\b.{0,60}\bwould (display|appear|go|be shown)\b|\b(insert|place|add) (photo|image|picture|text) here\b/i;

/** What "how many …" counts: the last word of the phrase after it ("thermal images"). Pure. */
function countedNoun(query: string): string | null {
  const m = /\bhow many ([\p{L}\s'’-]+)/iu.exec(query);
  if (!m) return null;
  const phrase: string[] = [];
  for (const w of m[1]!.trim().split(/\s+/)) {
    if (PHRASE_END.test(w) || /^(will|would|can|could|should|must|need|there)$/i.test(w)) break;
    phrase.push(w.toLowerCase());
  }
  const noun = phrase.at(-1);
  return noun && !STOPWORDS.has(noun) ? noun : null;
}

/** A word that is a count: "12", "1,200", "two". */
const COUNT_NUMBER = new RegExp(`^(\\d[\\d,]*|${NUMBER_WORDS})$`);

/** Any word that says how many: a number, or "no", "both", "single" … */
const COUNT_WORD = new RegExp(
  `\\d|\\b(no|none|one|${NUMBER_WORDS}|single|both|double|several|multiple|many|few|each|every)\\b`,
  'i',
);

/** An amount of money: "$5,000", "£1.20". */
const MONEY = /[$€£]\s?\d[\d,.]*/g;

/** Units a number measures in: "2 miles" counts no schools. */
const UNITS = new Set(
  (
    'mile miles mi km kilometer kilometers kilometre kilometres meter meters metre metres m ft ' +
    'feet foot inch inches in mm cm sq year years yr yrs month months day days hour hours hr hrs ' +
    'minute minutes min mins percent pct deg degrees'
  ).split(' '),
);

/** A count of a thing: a number, then the thing within three words ("228 radiometric JPEG images"). */
function counts(text: string, noun: string): boolean {
  // "Cover gable vents (2)": the count after the thing, in brackets.
  for (const m of text.matchAll(/([\p{L}-]+)\s*\((\d{1,4})\)/gu))
    if (sameWord(foldWords(m[1]!).at(-1) ?? '', noun)) return true;
  const words = foldWords(text);
  return words.some((w, i) => {
    if (!COUNT_NUMBER.test(w)) return false;
    for (const next of words.slice(i + 1, i + 4)) {
      if (UNITS.has(next)) return false;
      if (sameWord(next, noun)) return true;
    }
    return false;
  });
}

/**
 * A count of the whole ("All 175 images are kept …"), not of one part ("A total of 52 images
 * were taken across Block 2").
 */
const ALL_COUNTED = new RegExp(`\\ball (?:the )?(?:\\d[\\d,]*|${NUMBER_WORDS})\\s+\\p{L}`, 'iu');

/** A sentence's end and the next one's start: "… drive. Each image holds …". */
const SAID_FIRST = /[.!?]\s+\p{Lu}\p{Ll}*\s+\p{Ll}/u;

/** Nouns whose amount is money: "how much insurance", "how much rent". */
const MONEY_NOUN =
  /^(insurance|cover|coverage|deposit|deposits|rent|rents|tax|taxes|income|revenue|debt|loan|equity|premium|excess|deductible|budget|commission|savings)$/;

/** "What was the building used for?": also what occupied it. */
const USED_FOR_WORDS: readonly string[] = [...RELATED.used!, ...OCCUPANCY_WORDS];

/**
 * "What was it used for before 1994?": a time that ends in that year ("from 1962 to 1994") answers
 * it, not one that starts in it ("since 1994"); "after" and "since" a year the other way round.
 * Null when the question bounds no year. Pure.
 */
function yearBoundOf(query: string): { ends: RegExp; starts: RegExp; before: boolean } | null {
  const bound = /\b(before|prior to|until|after|since)\s+((?:1[89]|20)\d\d)\b/i.exec(query);
  if (!bound) return null;
  const year = bound[2]!;
  return {
    ends: new RegExp(
      `\\b(?:to|until|till|through|thru|before)\\s+${year}\\b|\\d\\s*[-–]\\s*${year}\\b`,
      'i',
    ),
    starts: new RegExp(`\\b(?:since|after|from)\\s+${year}\\b`, 'i'),
    before: /^(before|prior to|until)$/i.test(bound[1]!),
  };
}

/**
 * The words a text says things with. A "Buy-Sell" is a contract ("30 Days from Execution of Buy
 * Sell", a section "Buy-Sell Signed"): it sells nothing, so it is one word of its own. Pure.
 */
function namingWords(text: string): string[] {
  return foldWords(
    text
      .replace(/\bbuy[- ]sell\b/giu, 'buysell')
      // A trade mark sign is no word ("™" folds to "TM", which would join the name before it),
      // and a product named by an acronym it ends with ("ExampleAVM™: $…") says the acronym.
      .replace(/™/gu, ' ')
      .replace(/(?<=\p{Ll})(?=\p{Lu}{2,}(?![\p{L}\p{N}]))/gu, ' '),
  );
}

/**
 * What a question asks about, with the words an answer says it in: "how old" → age, years;
 * "what is the distribution panel rating" → rating (the head of the noun phrase); "where" →
 * location. Empty when it does not say. Pure.
 */
export function focusTerms(query: string): string[] {
  const m = FOCUS.exec(query);
  if (!m) return [];
  // "When was it serviced": a date is asked for; QUANTITY_QUESTION favours facts with numbers.
  if (m[4]) return ['date', 'dated'];
  // "How many thermal images were taken": images, counted.
  if (m[1]?.toLowerCase() === 'many') {
    const noun = countedNoun(query);
    return noun ? [noun] : [];
  }
  // "How much weight was the cost approach given?": an amount of weight, not a price.
  if (m[1]?.toLowerCase() === 'much' && muchOf(query) !== null) return [];
  // "How much will it cost …": a price.
  if (m[1]?.toLowerCase() === 'much' && /\b(cost|costs|price|pay|charge|fee|spend)\b/i.test(query))
    return ['cost', 'costs', 'price', 'estimate', 'estimated', 'fee', 'fees'];
  let word = m[1] ?? (m[3] ? 'located' : /^who/i.test(m[0]) ? 'manufacturer' : '');
  // "What must be done …", "what should I do": a verb follows, no noun phrase.
  if (m[2] && /^\s*(must|should|can|could|will|would|shall|may|might|need|needs)\b/i.test(m[2]))
    return [];
  // "Who are the intended users of the analysis?": the users are asked for, a list of parties
  // by their role. One ("Who is the appraiser?") is a person under the role's label, which a
  // focus on the role would not tell from the label's other words ("APPRAISER: SUPERVISORY").
  const phraseAsked = m[2] ?? m[5];
  if (phraseAsked) {
    // "the furnace's heating capacity": the possessive belongs to the phrase.
    const words = phraseAsked
      .trim()
      .replace(/['’]s\b/g, '')
      .split(/\s+/);
    const phraseAt = (from: number): string[] => {
      const phrase: string[] = [];
      for (const w of words.slice(from)) {
        if (PHRASE_END.test(w)) break;
        phrase.push(w);
      }
      // "What lodging taxes apply?": the verb after the phrase is not what is asked about.
      if (phrase.length >= 2 && PHRASE_VERB.test(phrase.at(-1) ?? '')) phrase.pop();
      return phrase;
    };
    const phrase = phraseAt(0);
    word = phrase.at(-1) ?? '';
    // "the maximum number of occupants": the occupants are counted ("the serial number of the
    // camera" asks for a number).
    if (
      COUNT_FRAME.test(word) &&
      phrase.slice(0, -1).every((w) => COUNT_QUALIFIER.test(w)) &&
      /^of$/i.test(words[phrase.length] ?? '')
    )
      word = phraseAt(phrase.length + 1).at(-1) ?? word;
  }
  word = word.toLowerCase();
  // "What was found with …", "what is wrong with …": a finding is asked for.
  if (/^(found|wrong|problems?|issues?|defects?|concerns?|damages?)$/.test(word))
    return DEFECT_WORDS;
  if (!word || STOPWORDS.has(word) || word === 'kind' || word === 'type' || word === 'sort')
    return [];
  return [word, ...(RELATED[word] ?? [])];
}

/**
 * Scores every fact of the documents for the question: each term weighted by its rarity
 * among the facts (idf), matched in the fact (full weight) or in its document's title (half),
 * a related word counting 0.6; numbers favoured when a quantity is asked, short labelled
 * facts when a kind is asked; boilerplate discounted. Pure.
 */
export function scoreFacts(documents: readonly ContextDocument[], question: string): Scored[] {
  // "How built up is the neighborhood?": how developed it is, not when it was built.
  const query = question
    .replace(/\bbuilt[- ]up\b/gi, 'developed')
    .replace(ROOF_ACCESS, 'walk the roof');
  // "What type of windows": `type` frames the question; the windows are what it is about.
  const frame = /\b(kind|type|sort|style)s? of\b/i.exec(query)?.[1]?.toLowerCase();
  // "What is the issue in the kitchen?": the kitchen is what it is about; the issue is how
  // findings are asked for (the focus favours the words they are said in).
  // "What nails … re-nail …": one word asked twice counts once.
  let asked = queryTerms(query)
    .filter((t) => t !== frame)
    .filter((t, i, all) => !all.slice(0, i).some((u) => sameWord(u, t)));
  // "What type of inspection was this?": nothing left but the report's own words; ask with them.
  if (asked.length === 0)
    asked = [...new Set(foldWords(query).filter((w) => REPORT_WORDS.has(w) || w === frame))];
  const advice = ADVICE_QUESTION.test(query);
  // "What does the report recommend about wood-destroying insects?": `recommend` asks for
  // advice (favoured below); the insects are what it is about.
  const framing = asked.filter((t) => FINDING_FRAME.test(t) || (advice && ADVICE_FRAME.test(t)));
  // "Who made the furnace?": made frames the question; the furnace is what it is about.
  const madeBy = /\bwho (made|manufactured|makes|built)\b/i.test(query);
  // "How long has the appraiser worked in this market?": a span up to now ("since 2002").
  const span = spanAsked(query);
  const lasting =
    span ||
    (/\bhow long\b/i.test(query) &&
      /\b(take|takes|took|last|lasts|until|ago|sell|sold|time|period)\b/i.test(query));
  // "What was the building used for?": what occupied it ("occupied as a retail store").
  const usedFor = /\bused (?:for|as)\b/i.test(query);
  const relatedOf = (t: string): readonly string[] =>
    lasting && t === 'long'
      ? TIME_WORDS
      : usedFor && t === 'used'
        ? USED_FOR_WORDS
        : (RELATED[t] ?? []);
  const yearBound = yearBoundOf(query);
  // "Who carried out the structural inspection?": carrying out says who did it, not what; the
  // report says it in its own words ("conducted … by Er. …").
  // "When was the inspection carried out?" likewise: the date answers, whatever verb says it.
  const doneAsked = /^\s*(who|when)\b/i.test(query);
  const ahead = /^\s*when\b.*\b(again|next)\b/i.test(query);
  const standardAsked = /^\s*(which|what)\b.*\b(standards?|codes?)\b/i.test(query);
  const terms = (
    framing.length > 0 && framing.length < asked.length
      ? asked.filter((t) => !framing.includes(t))
      : asked
  ).filter(
    (t, _, all) =>
      !(madeBy && all.length > 1 && /^(made|manufactured|makes|built)$/.test(t)) &&
      !(doneAsked && all.length > 1 && DOING.test(t)),
  );
  // "What is the final market value?": an amount of money ("Final Value: $368,000"), not a
  // sentence about how values are found; an R-value or U-value is no amount of money.
  const valued = /\b(values?|worth)\b/i.test(query) && !/\b[RU]-?values?\b/i.test(query);
  // "What is the land worth without the barns?": a value less what it leaves out. The barns
  // are not what is asked about; the land is.
  const leftOut = valued
    ? /\b(?:without|excluding|less|minus)\s+(?:the\s+|its\s+|any\s+)?([\p{L}-]+)/iu
        .exec(query)?.[1]
        ?.toLowerCase()
    : undefined;
  const leftOutAt = leftOut ? terms.findIndex((t) => sameWord(t, leftOut)) : -1;
  if (leftOutAt >= 0 && terms.length > 1) terms.splice(leftOutAt, 1);
  // "When was the check-out done?": a date answers it ("Date of inspection: 19 July 2026",
  // "Contract end: 19 April 2027"), whatever its label.
  const when = /^\s*(when|how soon)\b/i.test(query);
  // "What compliance score did the site get?": a score is a figure ("70% compliance", "8.1",
  // "4/5"), whatever word stands beside it.
  const scoreTerm = terms.find((t) => /^(score|scored|scores)$/.test(t));
  // "What is the asking price?": an amount of money is a price, whatever label it is under.
  // A word of money that names a method ("the cost approach", "the rent comparison") asks no
  // amount of it.
  const moneyTerm = terms.find(
    (t) =>
      /^(price|prices|cost|costs|fee|fees|rent|amount)$/.test(t) &&
      !new RegExp(`\\b${t}\\s+(approach|method|comparison|analysis|basis)\\b`, 'i').test(query),
  );
  // "When are corrosion-resistant fasteners needed?": on a condition ("if within 3000 ft of
  // saltwater"), not on a date.
  const conditional = when && /\b(needed|required|necessary|needs?|requires?)\b/i.test(query);
  // "How large is the site?": its area ("totals 11,200 sf"), more than a length of it.
  const areaAsked =
    spaceAsked(query) ||
    /\bhow (?:large|big)\b.*\b(?:site|lot|land|parcel|tract|house|home|building|unit|office|shop)\b/i.test(
      query,
    );
  const yesNo = /^\s*(is|are|was|were|did|does|do|has|have|had)\b/i.test(query);
  const framed = foldWords(query).filter((w) => /^(found|noted|observed|detected)$/.test(w));
  if (when && !terms.includes('date')) terms.push('date');
  // "When was the inspection carried out?": the event asked is a word every report says, left
  // out of the terms; its date's label names it ("Inspection Date: 27.09.2022").
  if (when)
    for (const w of foldWords(query))
      if (STOPWORDS.has(w) && REPORT_EVENT.test(w) && !terms.some((t) => sameWord(t, w)))
        terms.push(w);
  // "Who did the thermal scan?": a person, under the label of their role ("Thermographer: …").
  // "Which lender is the appraisal for?" asks who as well: a party named under its role.
  const who =
    (/^\s*(who|whose)\b/i.test(query) && !/\bwho (made|manufactured|makes|built)\b/i.test(query)) ||
    WHICH_PARTY.test(query);
  if (who && !terms.includes('who')) terms.push('who');
  // "Who carried out the inspection?" asks who did the work, not whom it was done for: a party
  // to the report ("Client: Sample Industrial Ltd.") does not answer it by its role.
  const asksDoer = who && DEED.test(query) && !PARTY_ROLE.test(query);
  // "Who is buying the property?": the buyer is asked, by that word or a related one.
  const buyerAsked = terms.some(
    (t) => sameWord(t, 'buyer') || relatedOf(t).some((r) => sameWord(r, 'buyer')),
  );
  // "How much does the verification cost?": an amount of money answers it.
  const price =
    (/\bhow much\b.*\b(cost|costs|price|pay|charge|charged|fee)\b/i.test(query) &&
      muchOf(query) === null) ||
    /\b(cost|price|fee|charge) (of|for)\b/i.test(query) ||
    // "How much professional indemnity insurance does it hold?": cover is an amount of money.
    MONEY_NOUN.test(muchOf(query) ?? '') ||
    // "What did the buyer pay?", "What was it listed for?": an amount of money.
    /\b(pay|paid|listed for|listed at|sold for|sell for|sells for|bought for)\b/i.test(query);
  const negated = NEGATION.test(query);
  const occupancyAsked =
    /\b(?:occupied|occupancy|vacant)\b/i.test(query) && !/\b(?:owners?|tenants?)\b/i.test(query);
  const zoningAsked = /\bzon(?:ed|ing)\b/i.test(query);
  const ownsAsked = terms.includes('owns');
  const roleAsked = PERSON_LABEL.test(query) || DEED.test(query) || WHICH_PARTY.test(query);
  const soldAsked = SOLD.test(query) && !OFFERED_ASKED.test(query);
  const ambientAsked = /\bambient\b/i.test(query);
  const contactAsked = /\b(?:contact|phone|e-?mail|fax|telephone)/i.test(query);
  const whereAsked = /\b(?:where|address(?:es)?|located|location|street)\b/i.test(query);
  // Asked of a value only: "the annual taxes … once completed" are taxes, on no premise.
  const premise = valued ? (PREMISES.find((p) => p.asked.test(query))?.name ?? null) : null;
  const why = /^\s*why\b/i.test(query);
  // "How should the crack be repaired?": what the report recommends for it.
  // A rating answers a question about condition, and no other kind.
  const ratingAsked = /\b(condition|state|shape|rated|rating)\b/i.test(query);
  const ratingAnswers = CONDITION_QUESTION.test(query);
  const facts = documents.flatMap((d, i) => factsOf(d.text, i));
  if (facts.length === 0 || terms.length === 0) return [];
  const defined = new Map([
    ...COMMON_ACRONYMS,
    ...definedAcronyms(documents.map((d) => d.text).join('\n')),
  ]);
  // "Is there a trip hazard in the back yard?" of "… in the backyard": a word written as one
  // of two words asked one after the other is both.
  const joined = new Map<string, string[]>();
  for (let i = 0; i + 1 < terms.length; i++)
    joined.set(`${terms[i]!}${terms[i + 1]!}`, [terms[i]!, terms[i + 1]!]);
  // "How big is the lot?": a parking lot is no lot of land, unless parking is what is asked.
  const parkingAsked = /\bparking\b/i.test(query);
  const unparked = (text: string): string =>
    parkingAsked ? text : text.replace(PARKING_LOT, 'parking');
  const ownWords = facts.map((f) => {
    const words = withSignWords(
      withAcronyms(
        // "Non-living Area" is no living area: a word after "non-" is another word.
        new Set(
          namingWords(
            unparked(
              f.text
                .replace(BACK_REFERENCE, ' ')
                .replace(IN_ORDER, ' ')
                .replace(FOR_ITS_AGE, ' ')
                .replace(/\bnon-(?=\p{L})/giu, 'non'),
            ),
          ),
        ),
        f.text,
        terms,
        defined,
      ),
      f.text,
    );
    for (const w of [...words]) for (const t of joined.get(w) ?? []) words.add(t);
    return words;
  });
  // A fact says a word asked by what it shows; the words' rarity stays that of the words
  // written.
  const bigTerm = terms.find((t) => /^(big|large)$/.test(t));
  const counted = countedNoun(query);
  const shownBy: [string | undefined, (f: Fact) => boolean][] = [
    // A figure answers a score ("Texas West: 8.9"), an amount of money a price.
    [scoreTerm, (f) => SCORE_VALUE.test(f.text.replace(REFERENCE, ''))],
    [moneyTerm, (f) => CURRENCY.test(f.text)],
    // "Which company did the inspection?" of "Sample Roof Inspections: 4 Mill Rd …
    // office@sample.example": a name with its address, e-mail or telephone is a firm's card.
    [terms.find((t) => /^(company|firm|business)$/.test(t)), (f) => FIRM_CARD.test(f.text)],
    // "What is the address?" of "Listing snapshot: 124 Oak Street, Sample Town": a number, a
    // name and a street's kind is an address.
    [terms.find((t) => /^address(es)?$/.test(t)), (f) => STREET_ADDRESS.test(f.text)],
    // "Who owns the property?" of "Primary Owner: Sample Holdings LLC": a name under the owner's
    // label says who owns it (the owner's phone number or contact does not: their label goes on).
    [
      terms.find((t) => t === 'owns'),
      (f) => f.labelled && /\bowners?$/i.test(factLabel(f).trim()) && /\p{Lu}/u.test(factValue(f)),
    ],
    // "What adjustment rate was used?" of "an adjustment at $75.00psf": so much a unit is a rate.
    [terms.find((t) => /^rates?$/.test(t)), (f) => PER_UNIT.test(f.text)],
    // "How big is the gross living area?" of "Gross Living Area: 1,192": a figure under the
    // thing's own label is its size.
    [
      bigTerm,
      (f) =>
        f.labelled &&
        // A number set with a leading zero ("Lot: 014") is a code, not a size. In a grid of
        // comparables ("Living Area: 1050; 1020; 1197"), the first is the subject's.
        /^\s*(?!0\d)\d[\d,.]*\s*$/.test(factValue(f).split(';')[0] ?? '') &&
        (terms.some((t) => t !== bigTerm && termMatches(t, new Set(foldWords(factLabel(f))))) ||
          // "How big is the house?": a house's size is its living area.
          (HOUSE_ASKED.test(query) && LIVING_AREA.test(factLabel(f)))),
    ],
  ];
  const factWords = facts.map((f, i) => {
    const words = new Set(ownWords[i]);
    for (const [term, shows] of shownBy) if (term && shows(f)) words.add(term);
    // "How many bedrooms and bathrooms?" of "Rooms/Beds/Baths: 7 / 3 / 2.5": a count under its
    // part of the label says what it counts.
    if (counted !== null) for (const t of terms) if (slashedCount(f, t) !== null) words.add(t);
    return words;
  });
  // A grid's other labels and values: "Approximate capacity: 90,000 BTU/hr" is about the
  // furnace its grid names in "Heating system type: Furnace".
  const blockWords = new Map<string, Set<string>>();
  facts.forEach((f, i) => {
    if (!f.labelled) return;
    const key = `${f.doc}:${f.block}`;
    const set = blockWords.get(key) ?? new Set<string>();
    for (const w of factWords[i]!) set.add(w);
    blockWords.set(key, set);
  });
  const titleWords = documents.map((d) => namingWords(d.title));
  const sectionNamedBy = titleWords.map((words) => {
    const named = words.filter((w) => !STOPWORDS.has(w) && !/^\d/.test(w));
    return named.length > 0 && named.every((w) => terms.some((t) => sameWord(t, w)));
  });
  const df = (t: string): number => ownWords.filter((w) => termMatches(t, w)).length;
  const weight = new Map(terms.map((t) => [t, Math.log(1 + (facts.length + 1) / (df(t) + 1))]));
  const total = terms.reduce((n, t) => n + weight.get(t)!, 0);
  const rate = RATE_QUESTION.test(query);
  // "What market rent was used in the income approach?": the rent is what is asked, the
  // approach where; an amount of rent answers it.
  const moneyAsked =
    moneyTerm !== undefined &&
    !price &&
    !valued &&
    (terms.at(-1) === moneyTerm ||
      new RegExp(
        `^\\s*what\\s+(?:\\p{L}+\\s+){0,2}${moneyTerm}\\s+(?:per\\b|was|is|were|are)\\b`,
        'iu',
      ).test(query));
  // "What is the livability score?": a figure ("Livability: 8.1"), not a word ("High score").
  const scoreAsked = SCORE_QUESTION.test(query);
  const quantity = QUANTITY_QUESTION.test(query) || rate || scoreAsked;
  const extreme = quantity && EXTREME.test(query);
  const limitAsked = EXTREME.test(query) || LIMIT_ASKED.test(query);
  const measure = MEASURE_QUESTION.test(query);
  // "What neighborhood is the house in?", "Which county is it in?": a thing asked by its name.
  const nameAsked = /^\s*(?:what|which) (\p{L}+) (?:is|are|was|were|does|do)\b/iu
    .exec(query)?.[1]
    ?.toLowerCase();
  // "How long / far / old …": a size, a distance or an age, not a count.
  const sized = measure && !/\bhow (many|much)\b/i.test(query);
  const adjustAsked = ADJUSTMENT.test(query);
  // "Is this analysis an appraisal?": what it is asked to be, said of it or denied.
  const isA = /^\s*(?:is|are|was|were)\b.*\b(?:an?)\s+([\p{L}-]{3,})\s*\??\s*$/iu.exec(query)?.[1];
  const predicate = isA
    ? new RegExp(
        `\\b(?:(?:is|are|was|were)(?: not)?(?: considered)?|not)\\s+(?:an?\\s+)?["“]?${isA}\\b`,
        'i',
      )
    : null;
  // "Is the home in a fire hazard severity zone?": what it is asked to be inside.
  const inside =
    /^\s*(?:is|are|was|were)\b.*\b(?:in|within|inside) (?:an?|the) (?:[\p{L}-]+ ){0,4}([\p{L}-]{3,})\s*\?*\s*$/iu.exec(
      query,
    )?.[1];
  const insideOf = inside
    ? new RegExp(
        `\\b(?:in|within|inside|outside)\\s+(?:(?:an?|the|any)\\s+)?(?:[\\p{L}-]+\\s+){0,4}${inside}\\b`,
        'iu',
      )
    : null;
  const share = shareAsked(query);
  const shareOf = share ? wholeOf(query) : null;
  // "The office O-3 window seal", "circuit EP-3": a code names one thing among its like.
  // "Thermal image RB02380X": an image's name, whose readings follow it.
  const codes = [...query.matchAll(/\b(\p{Lu}{1,3})-?(\d{1,6}\p{L}?)\b/gu)].map((m) => ({
    same: new RegExp(`\\b${m[1]!}-?${m[2]!}\\b`, 'i'),
    kind: new RegExp(`\\b${m[1]!}-?\\d`, 'i'),
  }));
  // A fact that names no code belongs to the one named last before it in its document (the
  // readings listed under an image's name): `true` the code asked, `false` another, else null.
  const recordOf = facts.map(() => null as boolean | null);
  if (codes.length > 0) {
    let current: boolean | null = null;
    facts.forEach((f, i) => {
      if (i > 0 && facts[i - 1]!.doc !== f.doc) current = null;
      if (codes.some((c) => c.same.test(f.text))) current = true;
      else if (codes.some((c) => c.kind.test(f.text))) current = false;
      recordOf[i] = current;
    });
  }
  // "Block B", "Unit 4", "Flat 2A": one of several alike, named by a letter or number.
  const places = [...query.matchAll(PLACE_NAME)].map((m) => ({
    id: m[2]!,
    all: new RegExp(`\\b${anyCase(m[1]!)}s?\\s+([A-Z]{1,2}|\\d{1,3}[A-Z]?)\\b`, 'g'),
  }));
  const series = seriesFacts(facts, documents);
  const compared = comparedOf(query);
  // "How many factors does the report cover?": when a fact counts them ("46 factors"), a fact
  // that counts something else does not answer.
  // Each fact's count of it under its part of a grid label ("Rooms/Beds/Baths: 7 / 3 / 2.5"),
  // and whether the fact counts it at all (that, or in its words), worked out once.
  const slashedCounts = facts.map((f) => (counted === null ? null : slashedCount(f, counted)));
  const countsEach = facts.map(
    (f, i) => counted !== null && (slashedCounts[i] !== null || counts(f.text, counted)),
  );
  const countedSomewhere = countsEach.some(Boolean);
  // What "how much" measures, when it is neither money nor a size, which a figure with its unit
  // gives without naming it ("How much weight …").
  const amounted = areaAsked ? null : muchOf(query);
  // Whether each fact gives a figure and names it, in its text or the subject it is filed under.
  const amountNamed =
    amounted === null || MONEY_NOUN.test(amounted)
      ? null
      : facts.map(
          (f) =>
            /\d/.test(f.text) &&
            foldWords(`${f.subject ?? ''} ${f.text}`).some((w) => sameWord(w, amounted)),
        );
  const amountedSomewhere = amountNamed?.some(Boolean) ?? false;
  // An amount of money per the unit counted ("$14,800 per acre", "$1.20/sf").
  const perCounted =
    counted === null
      ? null
      : new RegExp(
          `${MONEY.source}\\s*(?:\\/|per\\s+)\\s*${counted.replace(/s$/, '')}s?\\b`,
          'giu',
        );
  const kind = KIND_QUESTION.test(query);
  const manner = mannerAsked(query)?.noun;
  // "What kind of road is North Kootenai Creek Road?": the thing whose kind is asked.
  const kindAsked = kind
    ? /\b(?:is|are) (?:the |this |that )?([\p{L}\d][^?]*?)\s*\?*\s*$/iu
        .exec(query)?.[1]
        ?.toLowerCase()
    : undefined;
  const comparableAsked =
    COMPARABLE.test(query) || /\b(comparables?|comps?|sales|rentals)\b/i.test(query);
  // The documents about comparables: a section of them, a comparable's sheet by its title, a
  // text that opens with a comparable's name on a line of its own ("Improved Sale 2" over
  // "Type: Warehouse", "Sale Price: …"), all of it about that property, or one that says how a
  // sale was verified or names its grantee (the rest of a sheet, cut from its name).
  const ofComparables = documents.map(
    (d) =>
      COMPARABLES_TITLE.test(d.title) ||
      COMPARABLE_SHEET.test(d.title) ||
      COMPARABLE_NAME_LINE.test(d.text.trimStart().split('\n', 1)[0] ?? '') ||
      (SALE_VERIFIED.test(d.text) && /\bsales?\b/i.test(d.text)),
  );
  // "What did comparable sale 1 sell for?": the grid of comparables 1 to 3 holds its price, the
  // grid of 4 to 6 does not, and the market's "comparable sales … ranging from …" names none.
  const comparableNumber = COMPARABLE_NUMBER.exec(query)?.[1] ?? null;
  const comparableShown = comparableNumber
    ? documents.map((d) => {
        const shown = [...d.text.matchAll(COMPARABLE_NUMBERS)].map((m) => m[1]);
        return shown.length === 0 ? null : shown.includes(comparableNumber);
      })
    : [];
  const material =
    /\b(made of|made from|covered (with|in)|covering|material|materials|built of|built from|constructed of|cladding|what kind of|what type of)\b/i.test(
      query,
    );
  // A question about what was inspected wants the report's limits, not less of them.
  const aboutScope =
    /\b(inspect(ed)?|includ(ed|e)|check(ed)?|test(ed)?|scope|access(ed|ible)?)\b/i.test(query);
  // "What was the sales concession for?": what it went towards ("$3,000 concession towards
  // replacement of the gutters"), not that there was one ("Known Sales Concessions: Yes").
  const purposeAsked = PURPOSE_QUESTION.test(query);
  // "What capitalization rate was applied?": the figure chosen, not the span it came from.
  const queryWords = foldWords(query);
  const chosenAsked = queryWords.some((w) => CHOSEN_WORDS.has(w));
  const brand = /\b(brand|make|manufacturer|manufactured by)\b/i.test(query);
  const focus = focusTerms(query);
  const findingAsked = focus === DEFECT_WORDS;
  // "What was found at the rear door?": what stands there is asked.
  const locativeAsked = queryWords.some((w) => LOCATIVE.test(w));
  // How many of a label's words the question asks: said, framed, focused on, or related.
  const askedIn = (words: readonly string[]): number =>
    words.filter(
      (w) =>
        w === frame ||
        focus.some((t) => sameWord(t, w)) ||
        terms.some((t) => sameWord(t, w) || (RELATED[t] ?? []).some((r) => sameWord(r, w))),
    ).length;
  // "the hotspot temperature": the word before what is asked says which one.
  const modifier =
    queryWords
      .map((w, i) => (focus.includes(w) ? queryWords[i - 1] : undefined))
      .find(
        (w) =>
          w !== undefined &&
          terms.includes(w) &&
          // …and it labels readings of its own ("Hotspot: 28.8 °C"), unlike "nearest".
          facts.some((f) => f.labelled && foldWords(factLabel(f)).some((l) => sameWord(l, w))),
      ) ?? null;
  // "the sales comparison approach": the word before each word asked says which one. A year
  // ("before 1994") is no kind of anything.
  const kindOf = new Map<string, string>();
  queryWords.forEach((w, k) => {
    const before = queryWords[k - 1];
    if (
      k > 0 &&
      before &&
      terms.includes(w) &&
      terms.includes(before) &&
      !QUALIFIERS.has(before) &&
      !/^\d/.test(w)
    )
      kindOf.set(w, before);
  });
  const kinds = [...kindOf];
  // An appendix (an ordinance, a standard, a certificate printed after the report) says what
  // holds in general; the report's own pages say what holds for this property.
  const appendix = documents.map((d) => APPENDIX.test(d.title));
  // "Is the area urban, suburban or rural?": a fact that says one of them answers.
  const choices = choicesOf(query).filter((c) => terms.includes(c));
  const scored = facts.map((f, i) => {
    const words =
      choices.length >= 2 && choices.some((c) => termMatches(c, factWords[i]!))
        ? new Set([...factWords[i]!, ...choices])
        : factWords[i]!;
    const title = new Set(titleWords[f.doc]!);
    const namedBy = sectionNamedBy[f.doc]!;
    // A subject names what a fact is about ("WINDOWS \ Glass"); a paragraph above a grid's
    // values ("Block C floor is plain cement concrete, 125mm thick. …") is only its context.
    const subjectNames = (f.subject ?? '').length <= SUBJECT_CHARS;
    const subject = new Set(subjectNames ? foldWords(f.subject ?? '') : []);
    // A label in capitals says the words it stands for ("AQI" for "air quality index").
    const labelText = factLabel(f);
    const label = f.labelled ? withAcronyms(new Set(foldWords(labelText)), labelText, terms) : null;
    const valueText = factValue(f);
    // "Flood Hazard: The subject is not located in an identified flood hazard area.": a heading
    // set inline over a sentence, which says what it says, not only what the heading names.
    const sentenceUnder =
      label !== null &&
      f.text.length - labelText.length > 40 &&
      // "All 175 images are …" is a count under its label, not a sentence.
      /^\s*(the|this|these|those|all(?!\s+\d)|our|my|i|we|it)\b/i.test(
        f.text.slice(labelText.length + 1),
      );
    // "Dear Sample Person, this letter confirms your engagement to prepare an appraisal …": the
    // one engaged did the work the letter names, for "Who appraised the property?".
    const engaged = asksDoer ? (ENGAGED.exec(f.text)?.[3] ?? null) : null;
    // "Contact information: Sample Person (purchaser) …": a person named with the role asked
    // in brackets, whatever the label.
    const roleInBrackets = [...f.text.matchAll(NAMED_ROLE)].some((m) =>
      terms.some((t) => sameWord(t, m[1]!) || relatedOf(t).some((r) => sameWord(r, m[1]!))),
    );
    // "Sample Person and/or assigns": the buyer, named as such when the buyer is asked.
    const buyerNamed = buyerAsked && ASSIGNS.test(f.text);
    // "Inspector: Sample Person" names someone by role; a label that ends a clause before a
    // sentence ("In preparing this appraisal, the appraiser: - Inspected the site …") does not.
    const byRole =
      roleInBrackets ||
      buyerNamed ||
      (f.labelled &&
        ((PERSON_LABEL.test(labelText.replace(POSSESSED, '')) &&
          !(asksDoer && namesOnlyParty(labelText)) &&
          valueText.trim().split(/\s+/).length <= 12 &&
          !namesNoOne(valueText)) ||
          // "Name: Sample Q Person": a person, whose role is the card's ("APPRAISER" above it).
          (/^(full )?name$/i.test(labelText.trim()) && PERSON_VALUE.test(valueText.trim())) ||
          // "Sample Person: Listing Specialist …": a card's name over the role under it.
          (PERSON_VALUE.test(labelText.trim()) &&
            ROLE_FIRST.test(valueText) &&
            valueText.trim().split(/\s+/).length <= CARD_LINE_WORDS) ||
          // "Company Name: DEF Bank" on a lender's card: a party, named.
          (/^(company|business|firm|organi[sz]ation|entity) name$/i.test(labelText.trim()) &&
            /^\p{Lu}/u.test(valueText.trim()) &&
            valueText.trim().split(/\s+/).length <= 8)));
    const context = f.labelled
      ? subjectNames
        ? blockWords.get(`${f.doc}:${f.block}`)
        : new Set([...(blockWords.get(`${f.doc}:${f.block}`) ?? []), ...foldWords(f.subject!)])
      : f.prior || f.next
        ? new Set(foldWords(`${f.prior ?? ''} ${f.next ?? ''}`))
        : undefined;
    // "… as of the date of last inspection, July 28, 2023": the events a dated sentence names.
    const events = when && saysWhen(f.text) ? datedEvents(f.text) : [];
    // A grid's row across comparables ("Sale Price $ $402,000 $389,500 $415,000").
    const across = comparableNumber !== null && (f.text.match(/[$€£]\s?\d/g)?.length ?? 0) >= 3;
    let score = 0;
    let recommends = false;
    let labelAnswers = false;
    const matched: string[] = [];
    let direct = false;
    for (const t of terms) {
      const w = weight.get(t)!;
      // In the fact or in the item it is filed under ("APPLIANCES \ Range"): the full weight;
      // a related word in it (gallons for size): 0.6; only in the section's title: 0.8 unmatched.
      // An amount of money stands for the price asked, a little less than the word.
      const standsFor =
        t === moneyTerm && !termMatches(t, ownWords[i]!) && !termMatches(t, subject);
      if (standsFor && termMatches(t, words)) {
        score += 0.8 * w;
        matched.push(t);
        direct = true;
      } else if (
        // "How long would it take to sell?": a time, not a length ("92’ long trenches").
        // "who" itself in a sentence ("… an appraiser who has inspected …") names no one.
        // "When was it signed?": the word "date" in a sentence ("did not date the contract")
        // says no date.
        (!(lasting && t === 'long') &&
          !(who && t === 'who') &&
          !(when && (t === 'date' || t === 'dated')) &&
          (termMatches(t, words) || termMatches(t, subject))) ||
        (when &&
          (t === 'date' || t === 'dated') &&
          (saysWhen(f.text) || (conditional && CONDITION_CLAUSE.test(f.text)))) ||
        // "When was the property inspected?" of "Inspection Date: 05/24/2025": the label names
        // the event in a word every report says, which matches nowhere else.
        (when && label !== null && saysWhen(f.text) && [...label].some((l) => sameWord(t, l))) ||
        // So does a date a sentence names the event of.
        events.some((e) => sameWord(t, e)) ||
        // "When should it be inspected again?" of "A further inspection is recommended in 12
        // months": a time from now names its event in the words around it.
        (ahead && AHEAD.test(f.text) && [...words].some((w) => sameWord(t, w))) ||
        (who && t === 'who' && (byRole || namesPerson(f.text) || OWNED_BY.test(f.text))) ||
        // "How long has the appraiser worked here?" of "… appraising here since 2002".
        (span && (t === 'long' || t === 'years') && holdsSpan(f.text)) ||
        // "What share of the units is expected to presell?" of "Approximately 50% presales".
        (share && shareNoun(t) && holdsShare(f.text)) ||
        (engaged !== null && (t === 'who' || sameDeed(t, engaged)))
      ) {
        score += w;
        matched.push(t);
        direct = true;
      } else if (relatedOf(t).some((r) => termMatches(r, words))) {
        const titled = termMatches(t, title);
        score += (titled ? 0.8 : 0.6) * w;
        matched.push(t);
        direct ||= titled;
      } else if (
        termMatches(t, title) ||
        // The grid of comparable 1 names it once, over its rows ("Sale Price $ $402,000 …").
        (across && comparableShown[f.doc] === true && (t === comparableNumber || /^comp/.test(t)))
      ) {
        score += 0.8 * w;
        direct = true;
      } else if (context && termMatches(t, context)) score += 0.5 * w;
      else if (relatedOf(t).some((r) => termMatches(r, title) || termMatches(r, subject)))
        score += 0.5 * w;
    }
    // "Sidewall Height: 18’" for "How tall are the shop walls?": a label that names the thing
    // and its measure, each in a word of its own, says them as plainly as the words asked. The
    // related words are the vocabulary's own, not a question's time words ("Marketing Time" is
    // no answer to how long a sale takes).
    if (!direct && label)
      direct =
        terms.filter((t) => (RELATED[t] ?? []).some((r) => termMatches(r, label))).length >= 2;
    const coverage = total > 0 ? score / total : 0;
    // A finding filed under what is asked about ("WINDOWS \ Glass") is about it, where one
    // filed elsewhere only mentions it.
    if (terms.some((t) => termMatches(t, subject))) score *= 1.2;
    if (matched.length === 0) score *= 0.3;
    // Only a related word ("make" for brand, in "make up the shortfall"), and nothing asked in
    // its section's title either: weaker than a word asked.
    else if (!direct) score *= 0.7;
    // "less than six months" is a figure of a time, in words.
    if (
      quantity &&
      (/\d/.test(f.text.replace(REFERENCE, '')) || (lasting && TIME_MEASURED.test(f.text)))
    ) {
      score *= 1.3;
      // "How long is the crack?": a figure with its unit ("~30cm"), more than a bare number;
      // "How long has …?": a time, or the year it began ("since 2002").
      if (
        sized &&
        (lasting
          ? TIME_MEASURED.test(f.text) || (span && holdsSpan(f.text))
          : MEASURED.test(f.text))
      )
        score *= 1.3;
      // "What vacancy rate was used?": a percentage.
      // "What adjustment rate was used for living area?": so much a unit ("$75.00psf").
      if (rate && (/\d\s?%/.test(f.text) || PER_UNIT.test(f.text))) score *= 1.3;
    }
    // "How old is the roof?", "What cap rate was used?": a number answers, a sentence about
    // its age or its rate without one does not.
    // "What is the hottest temperature …?": the highest of figures is a figure too.
    else if (measure || rate || extreme || scoreAsked) score *= 0.7;
    // "What is the estimated market rent?": an amount of money, more than a sentence about it.
    // Only where the money word is what is asked about, not a kind ("the cost approach").
    if (moneyAsked) score *= CURRENCY.test(f.text) ? 1.3 : 0.8;
    // "Is the house occupied?": "Owner Occupied: No" says whether its owner lives there, not
    // whether anyone does ("Property Occupant: Vacant").
    if (occupancyAsked && /\bowner[- ]occupie[dr]/i.test(f.text)) score *= 0.7;
    // "… before 1994": a time that ends then, more than one that starts then.
    if (yearBound) {
      const ends = yearBound.ends.test(f.text);
      if (ends || yearBound.starts.test(f.text)) score *= ends === yearBound.before ? 1.5 : 0.6;
    }
    // "The calculated square footage of the gross living area is: Garage/Carport; 400 Sq.Ft.
    // @ $; 40.00 …": a form's prompt, read across into the next row's cells.
    if (
      f.labelled &&
      /\b(is|are)\s*$/i.test(labelText) &&
      labelText.split(/\s+/).length >= 6 &&
      valueText.split(';').length >= 3
    )
      score *= 0.5;
    // "Restroom 1: Restroom 2": two photo captions side by side, no label and value.
    if (CAPTION_PAIR.test(f.text)) score *= 0.1;
    // "The appraiser must, at a minimum: (1) obtain …": a clause that leads into a list, not a
    // label naming what follows.
    if (label && CLAUSE_LEAD.test(labelText)) score *= 0.7;
    // "What market rent was used?": a rent is an amount per unit ("$13.40/SF/YR").
    if (moneyAsked && /^rents?$/.test(moneyTerm!) && PER_UNIT.test(f.text)) score *= 1.5;
    // A scale's legend ("Condition: Poor Fair Moderate Good Excellent") rates nothing.
    if (label && LEGEND.test(valueText)) score *= 0.3;
    if (LEGEND_ENTRY.test(f.text)) score *= 0.4;
    // "Crime rates are shown per 100,000 residents …", "Counts … facilities within about 3
    // miles …": how a report's figures are made, not what they are.
    if (METHOD.test(f.text)) score *= 0.6;
    // Under a finding's title ("Broken Roof Shingles: recommendation / deficiency") the title
    // still says what was found; alone, the category says nothing.
    if (CATEGORY.test(label ? valueText : f.text)) score *= label ? 0.6 : 0.3;
    // "How many anomalies …": a number of them ("with 12 anomalies identified").
    const countsIt = countsEach[i] === true;
    if (countsIt) {
      score *= ALL_COUNTED.test(f.text) ? 1.6 * 1.3 : 1.6;
      // "How many bedrooms?": a count under its own label ("Bedrooms: 3", "Rooms/Beds/Baths: 7
      // / 3 / 2.5") more than one in a sentence ("a charming three-bedroom home").
      if (counted !== null && countOf(f, counted) !== null) score *= 1.2;
    } else {
      // "How many stories?": a count, not a figure with a unit ("Height per story: 10'"). "How
      // many restrooms?": a caption that names them ("View of Restrooms") counts none, and "How
      // many bedrooms?": nor does a price per bedroom ("Bedrooms: $5,000 per").
      if (
        counted !== null &&
        (MEASURED.test(f.text) ||
          !COUNT_WORD.test(f.text.replace(REFERENCE, '').replace(MONEY, ' ')))
      )
        score *= 0.7;
      // Where another fact counts them, a fact that does not is less again.
      if (countedSomewhere) score *= 0.7;
    }
    // "How much weight was given to the sales comparison approach?": a figure of weight ("given
    // the most weight (70%)"), where some fact gives one, not the approach's value.
    if (amountNamed?.[i] === false && amountedSomewhere) score *= 0.7;
    // A table of contents names sections, it says nothing of them.
    if (CONTENTS.test(f.text)) score *= 0.3;
    // An appraisal's adjustments ("Comparable 5 was adjusted for superior lot size.") weigh the
    // comparables against the subject; they say nothing of the subject unless they are asked.
    if (!adjustAsked && ADJUSTMENT.test(f.text)) score *= 0.7;
    // A form's placeholder ("This is where the Garage photo would display.") says nothing.
    if (PLACEHOLDER.test(f.text)) score *= 0.3;
    // "How much of the terrace …": a share; "How much of the basement is leased?": a share, or
    // an area of it ("3,740 sf of the basement"), more than "a portion" of it.
    if (share) score *= holdsShare(f.text) ? 1.4 : holdsArea(f.text) ? 1 : 0.8;
    // "How much of the lot can be covered?": a share of the lot ("Maximum Lot Coverage: 75%"),
    // more than a share of something else ("Window signs …: 30% coverage of …").
    if (
      shareOf &&
      holdsShare(f.text) &&
      ![words, subject, title].some((set) => termMatches(shareOf, set))
    )
      score *= 0.9;
    // A drawing's labels run together ("PROPOSED SEPTIC TANK CISTERN'S OVERFLOW DRAINAGE SUMP
    // EMPLOYEE BATHROOM …"): nearly every word in capitals.
    if (!f.labelled && drawingText(f.text)) score *= 0.5;
    // "How much living area …?": an area, in square units ("1440 Sq ft"), not a length (44').
    if (areaAsked && holdsArea(f.text)) score *= 1.3;
    // "How big is the lot?": a limit a rule sets ("40,000 sf, 140 ft frontage minimum") is not
    // the lot's own size, unless a limit is asked. (How much cover a policy holds may well be
    // its minimum.)
    if (sized && !limitAsked && LIMIT.test(f.text)) score *= 0.7;
    // "When is bicycle parking required?": a date alone ("Ord. No. 0-2006-32, 11-28-2006")
    // says nothing of the rule.
    if (conditional && matched.length > 0 && matched.every((t) => t === 'date')) score *= 0.5;
    // "Were any water leaks found?" of "No active leaks found.": the question's own verb.
    if (yesNo && framed.some((t) => words.has(t))) score *= 1.1;
    // "Is the property in an overlay district?" of "there are no applicable overlay or historic
    // districts": a denial of what is asked answers no.
    if (yesNo && deniesAsked(f.text, matched)) score *= 1.2;
    // "When should the roof be inspected again?": a time from now ("in 12 months"), not the
    // date the report was made.
    if (ahead) score *= AHEAD.test(f.text) ? 1.5 : DATE_VALUE.test(f.text) ? 0.6 : 1;
    // "Which standard does the inspection follow?": a standard is named by its code.
    if (standardAsked && STANDARD_CODE.test(f.text)) score *= 1.3;
    // "What did the owner pay for the land?": what was paid, not what the land is estimated to
    // be worth ("Est. Land Value: $657,912").
    if (price && !valued && /\b(values?|valued|valuation)\b/i.test(f.text) && !PAID.test(f.text))
      score *= 0.7;
    // A date, a record number or a share ("25% weight") is no amount of money.
    if (price || valued)
      score *= CURRENCY.test(f.text)
        ? 1.5
        : /\d/.test(
              f.text
                .replace(DATES, '')
                .replace(REFERENCE, '')
                .replace(/\d+(?:\.\d+)?\s?%/g, ''),
            )
          ? 1
          : 0.6;
    // "I have estimated market rent for the subject to be $11.50 psf": the figure a valuer
    // settles on, rather than the range of the comparables it is drawn from.
    if ((price || valued || moneyTerm || quantity) && CONCLUDED.test(f.text)) score *= 1.2;
    // Asked which figure was applied (used, selected …), the valuer's conclusion that names the
    // thing asked and a figure gives it ("Therefore, a rate of 7.5% is selected for the
    // subject"), where a comparable's sheet gives that comparable's own figure under the very
    // label asked.
    if (
      chosenAsked &&
      CONCLUDED.test(f.text) &&
      /\d/.test(f.text) &&
      terms.every((t) => CHOSEN_WORDS.has(t) || matched.includes(t))
    )
      score *= 2;
    // "What capitalization rate was applied?": the rate chosen, not the range it was chosen from.
    if (chosenAsked && (price || valued || moneyTerm || quantity) && FIGURE_RANGE.test(f.text))
      score *= 0.7;
    // "What is the land worth?": what the assessor put on it for its taxes is not its worth,
    // unless the assessment is asked.
    if (valued && !ASSESSED.test(query) && ASSESSED.test(f.text)) score *= 0.7;
    for (const p of places) {
      // Named in the fact, else in what it is filed under: the one asked, or another only.
      let named = new Set([...f.text.matchAll(p.all)].map((m) => m[1]!));
      if (named.size === 0)
        named = new Set(
          [...`${f.subject ?? ''} ${documents[f.doc]!.title}`.matchAll(p.all)].map((m) => m[1]!),
        );
      if (named.size === 1) score *= named.has(p.id) ? 1.5 : 0.5;
    }
    if (codes.length > 0) {
      if (codes.some((c) => c.same.test(f.text))) score *= 1.5;
      else if (codes.some((c) => c.kind.test(f.text))) score *= 0.5;
      else if (recordOf[i] === true) score *= 1.4;
      else if (recordOf[i] === false) score *= 0.6;
    }
    // When: a date alone ("4/27/2026") says when something happened, not what; a fact that
    // names nothing else asked is some other event's date ("When is the high season?").
    if (
      when &&
      matched.length > 0 &&
      matched.every((t) => t === 'date' || t === 'dated') &&
      terms.some((t) => t !== 'date' && t !== 'dated' && !REPORT_EVENT.test(t))
    )
      score *= ONLY_WHEN;
    // Who: the person named under their role answers; a fact naming no one does not, and one
    // naming someone but nothing else asked names someone else.
    if (who) {
      // A role answers a question of who did something or of a role ("Who inspected …?",
      // "Who is the client?"); asked who supplies the gas, an appraiser's line names someone else.
      const onlyWho = matched.length === 1 && terms.length >= 2 && (!byRole || !roleAsked);
      score *= matched.includes('who') ? (onlyWho ? 0.8 : 1.6) : 0.8;
    }
    // "Is this analysis an appraisal?": "… was not an appraisal" says yes or no to it.
    // "Is the home in a fire hazard severity zone?": "Not in a designated Fire Hazard Severity
    // Zone" says yes or no to it too.
    if ((predicate && predicate.test(f.text)) || insideOf?.test(f.text)) score *= 1.3;
    // "What kind of road is North Kootenai Creek Road?": "… is a graveled county roadway".
    // The thing asked named before it ("North Kootenai Creek Road is a …"), more still.
    if (kind && /\b(is|are) (a|an)\b/i.test(f.text)) {
      score *= 1.3;
      const before = f.text.split(/\b(?:is|are) (?:a|an)\b/i)[0]!.toLowerCase();
      if (kindAsked && before.includes(kindAsked)) score *= 1.2;
    }
    // An appraisal's comparables ("Sale 4 …", "Rental 2 …") are other properties: what the
    // report says of the subject answers, unless a comparable is asked about.
    if (!comparableAsked) {
      const docTitle = documents[f.doc]?.title ?? '';
      const about = `${f.text} ${f.subject ?? ''} ${f.prior ?? ''} ${docTitle}`;
      const ofComparable = ofComparables[f.doc] || COMPARABLE.test(about);
      // A grid row whose first cell is the subject's ("Baths: Subject: 2.5; Comp 1: 2") is of
      // the subject too.
      const subjectCell = f.labelled && /^\s*subject:/i.test(factValue(f));
      if (!/\bthe subject\b/i.test(f.text) && !subjectCell && ofComparable) score *= 0.6;
      else if (series.has(i)) score *= 0.8;
      // "Price/Acre: N/A; $12,961; $19,538; $7,000 …": a grid's row across the subject and its
      // comparables, the subject's cell first; when that one is empty, the row gives only the
      // comparables' figures.
      else if (label && noSubjectCell(valueText)) score *= 0.7;
    }
    if (comparableNumber) {
      // A row across comparables in the grid that shows the one asked, giving what is asked of
      // it ("Sale Price" for "sell for") and not only its number; less in a grid of others.
      const shown = comparableShown[f.doc];
      const asked = matched.some((t) => t !== comparableNumber && !/^comp/.test(t));
      if (across && asked && shown === true) score *= 1.3;
      else if (across && shown === false) score *= 0.6;
      if (COMPARABLES_IN_GENERAL.test(f.text) && !COMPARABLE_NUMBER.test(f.text)) score *= 0.7;
    }
    // A form's blank ("Urgency: [Monitor / 30-60 days / …]") is a template, not a finding.
    if (label && /:\s*\[[^\]]*\]\s*$/.test(f.text)) score *= 0.3;
    if (kind && f.labelled) score *= 1.2;
    // "What is the property worth as is?": the value on the premise asked ("the final estimated
    // "As Is" market value … $1,110,000"), not on another ("… "As Completed" market value …").
    if (premise) {
      const named = PREMISES.filter((p) => p.said.test(f.text)).map((p) => p.name);
      if (named.length > 0) score *= named.includes(premise) ? 1.3 : 0.7;
    }
    // "What is the range of comparable sale prices?": what sold, not what is offered for sale.
    if (soldAsked && OFFERED.test(f.text) && !SOLD.test(f.text)) score *= 0.8;
    // "Garage: 124 Sample Ave", a photo's caption: a place's address says nothing of the
    // thing its label names, unless where it is is asked.
    if (label && !whereAsked && ADDRESS_ONLY.test(valueText)) score *= 0.5;
    // "What is the hottest temperature in the panel room?": a reading of the thing, not the
    // air around it ("Ambient temperature during scan: 27 deg C").
    if (extreme && !ambientAsked && /\bambient\b/i.test(f.text)) score *= 0.7;
    // "Who owns the property?": whom to contact for the owner ("Property Owner Contact Name:
    // … − Realtor") and how ("Property Owner Phone: …") do not name the owner.
    if (who && !contactAsked && CONTACT_LABEL_WORDS.some((w) => label?.has(w))) score *= 0.8;
    // "Who owns the property?": not whoever owned it before ("Before this sale, the property had
    // been under the ownership of …").
    if (ownsAsked && FORMER.test(f.text)) score *= 0.5;
    // "How many acres is the property?": "$14,800 per acre" is a price, which counts no acres.
    const unpriced = perCounted ? f.text.replace(perCounted, ' ') : f.text;
    if (
      counted !== null &&
      unpriced !== f.text &&
      !foldWords(unpriced).some((w) => sameWord(w, counted))
    )
      score *= 0.5;
    // "What is the zoning?": a district's code ("Specific Zoning Classification: R40"), more
    // than a description of what the district allows.
    if (zoningAsked && ZONE_CODE.test(valueText)) score *= 1.3;
    // "What type of property …": "Property Type: Flat" names the kind by its label.
    if (frame && label?.has(frame)) score *= 1.6;
    // "How is the house heated?": what a report labels "Heating" ("Heating/Cooling: Heat
    // pump"), more than a line that only names heating among others (a form's options).
    if (manner && label?.has(manner)) score *= 1.3;
    // "What neighborhood is the house in?": its name ("Neighborhood Name: …"), more than a
    // description under the same word.
    if (nameAsked && label?.has('name') && label.has(nameAsked)) score *= 1.3;
    // What kind of thing it is is not what is wrong with it ("Defect: the rubber boot …").
    if (kind && f.labelled && FINDING_LABEL.test(factLabel(f).trim())) score *= 0.7;
    // The opposite of what is asked ("Cooling capacity" for the heating capacity, the front
    // gutter for the rear one) answers something else.
    if (
      OPPOSITES.some(
        ([a, b]) =>
          (terms.includes(a) && words.has(b) && !words.has(a)) ||
          (terms.includes(b) && words.has(a) && !words.has(b)),
      )
    )
      score *= 0.5;
    if (focus.length > 0) {
      // The answer names what is asked about ("capacity", "age"); a grid answers it in its
      // label: "Main panel capacity: 200 AMP".
      if (
        focus.some((t) => termMatches(t, words) || termMatches(t, subject)) ||
        (when && saysWhen(f.text))
      ) {
        score *= 1.3;
        // When something happens is a date under a label naming it ("Contract end: …" for
        // "when does the contract end"); "… Date" alone names no event. A label may name what
        // is asked by the word before it: "Hotspot: 28.8 °C" for "the hotspot temperature".
        // "I have estimated the vacancy rate to be 5.0%": the very one asked, by both words in
        // a row; "Heat pump cooling capacity: 36,000 BTU/hr" names another than the heating
        // capacity asked, by a word of its own (not a qualifier) before the word asked.
        const factWordList = foldWords(f.text);
        const namesIt =
          modifier !== null &&
          factWordList.some(
            (w, k) =>
              k > 0 &&
              focus.some((t) => sameWord(t, w)) &&
              sameWord(modifier, factWordList[k - 1]!),
          );
        const labelWords = foldWords(labelText);
        const otherOne =
          modifier !== null &&
          label !== null &&
          !namesIt &&
          !termMatches(modifier, subject) &&
          !termMatches(modifier, label) &&
          !relatedOf(modifier).some((r) => termMatches(r, label)) &&
          !termMatches(modifier, title) &&
          labelWords.some(
            (w, k) =>
              k > 0 &&
              focus.some((t) => sameWord(t, w)) &&
              labelWords[k - 1]!.length >= 3 &&
              !QUALIFIERS.has(labelWords[k - 1]!) &&
              !STOPWORDS.has(labelWords[k - 1]!) &&
              !terms.some((t) => sameWord(t, labelWords[k - 1]!)) &&
              !focus.some((t) => sameWord(t, labelWords[k - 1]!)),
          );
        if (namesIt) score *= 1.3;
        const labelNames =
          label &&
          !otherOne &&
          (when
            ? terms.some((t) => t !== 'date' && termMatches(t, label))
            : focus.some((t) => termMatches(t, label)) ||
              // "How big is the lot?": "Area: 6219 sf", an area measured under its label.
              (focus.includes('size') && label.has('area') && MEASURED.test(valueText)) ||
              (modifier !== null &&
                termMatches(modifier, label) &&
                focus.some((t) => termMatches(t, words)) &&
                // "Recommended List Price: As-Is Price Estimate: $195,000; …" for "What is the
                // as-is price estimate?": the row's column names what is asked, whole; the row's
                // own label, saying one word of it, names another thing.
                !valueText.split(/;\s*/).some((pair) => {
                  const column = new Set(foldWords(pair.split(':')[0]!));
                  return (
                    pair.includes(':') &&
                    focus.some((t) => termMatches(t, column)) &&
                    termMatches(modifier, column)
                  );
                })));
        if (otherOne) score *= 0.7;
        else if (labelNames && !sentenceUnder) {
          score *= 1.5;
          labelAnswers = true;
        }
        // "Inspection Date: 15 March 2024" says when the report was made, not when the
        // building was built, unless that is asked.
        else if (when && label && REPORT_EVENT.test(labelText) && !REPORT_EVENT.test(query))
          score *= 0.5;
      } else score *= 0.75;
      // A life expectancy is not an age.
      if (
        focus.includes('age') &&
        /life expectancy|lifespan|life span|remaining life|useful life/i.test(f.text)
      )
        score *= 0.6;
    }
    // Another of the kind asked ("the income approach" for the sales comparison approach),
    // the one asked named nowhere with it.
    if (kinds.length > 0 && otherKind(f.text, kinds, words, subject, title)) score *= 0.7;
    if (appendix[f.doc]) score *= 0.75;
    // "What is wrong with beam 3?": a finding says what is wrong ("Beam 3 split along its
    // face"), not what to do ("Keep the area below Beams 2, 3 and 4 clear") nor what stands at
    // it ("Light fitting at Beam 3"), unless what stands there is the finding ("Leak at Beam 3").
    if (findingAsked) {
      const fw = foldWords(f.text);
      const finding = (w: string): boolean => FINDING_SAID.some((d) => sameWord(d, w));
      if (!fw.some(finding)) score *= 0.9;
      const at = fw.findIndex((w) => terms.some((t) => !/^\d/.test(t) && sameWord(t, w)));
      if (
        !locativeAsked &&
        at >= 2 &&
        LOCATIVE.test(fw[at - 1]!) &&
        !finding(fw[at - 2]!) &&
        !terms.some((t) => sameWord(t, fw[at - 2]!))
      )
        score *= 0.9;
    }
    // "Why …": a reason is given with "because", "due to", "since".
    const reason = why && (REASON.test(f.text) || (negated && HINDERED.test(f.text)));
    if (reason) score *= 1.3;
    // "Why was the cost approach not used?": what was not done is said with a "not".
    if (negated && NEGATION.test(f.text)) score *= 1.25;
    // A rating grid's row whose mark lost its column ("4.2 Insulation: •") says nothing.
    if (label && /:\s*[•✓✔●■◼√]\s*$/.test(f.text)) score *= 0.3;
    const valueWords = foldWords(valueText);
    if (label) {
      // A label that names just what is asked ("Roofing material") over one that names more
      // ("Attic/roof insulation material").
      // A row's code ("DEF-001: …") names nothing.
      const code = /^[\p{Lu}\d]{1,6}[-./]?\d+[\p{L}\d-]*$/u.test(f.text.split(':')[0]!.trim());
      const named = code
        ? []
        : [...label].filter((w) => w.length >= 3 && !STOPWORDS.has(w) && !/^\d/.test(w));
      // "Comments, questions, concerns": a label of what was said, like "Notes".
      const finding = (f.text.split(':')[0] ?? '')
        .split(/\s*(?:,|\/|&|\band\b)\s*/)
        .some((part) => FINDING_LABEL.test(part.trim()));
      // A label over a passage ("Roof Deck Attachment: When retrofit is required, renail …")
      // is its section's name; the passage says what it is about.
      const passage = f.text.length - f.text.indexOf(':') > 120 || sentenceUnder;
      // Every word asked is in the value ("Members: Condition of cracks observed on RCC Column
      // and Beam Moderate"): the label is only the heading it was printed under.
      const valueSet = new Set(valueWords);
      const valueSays = terms.length >= 2 && terms.every((t) => termMatches(t, valueSet));
      // "Rooms/Beds/Baths: 7 / 3 / 2.5": each part of the label names its own count.
      const slashed = slashedCounts[i] !== null;
      if (named.length > 0 && !finding && !passage && !valueSays && !roleInBrackets && !slashed) {
        // A table row's value says its columns' titles ("Land: 2022 Assessed Value: $1,606;
        // 2022 Taxes: $292.18"): where they name every word matched outside the row's label,
        // they label its figures as much as the label does.
        const titles = [...valueText.matchAll(/(?:^|;)\s*([^:;]{2,40}):\s/g)].map((m) =>
          foldWords(m[1]!).filter((w) => w.length >= 3 && !STOPWORDS.has(w) && !/^\d/.test(w)),
        );
        const titleWords = new Set(titles.flat());
        const titled =
          matched.some((t) => termMatches(t, titleWords)) &&
          matched.every((t) => termMatches(t, titleWords) || termMatches(t, label));
        const labelShare = Math.max(
          askedIn(named) / named.length,
          ...(titled ? titles.filter((w) => w.length > 0).map((w) => askedIn(w) / w.length) : []),
        );
        score *= 0.6 + 0.4 * labelShare;
        // Of a table's rows, the one the question names by its own label, word for word
        // ("TOTAL" for "… in total?"), is the row asked.
        if (titled && titles.length >= 2 && named.every((w) => terms.some((t) => sameWord(t, w))))
          score *= 1.1;
      }
      if (RATING_VALUE.test(f.text)) {
        // A question about condition is answered by the rating, with what was seen.
        if (ratingAsked) score *= 1.2;
        // A rating ("Roof Materials: Serviceable") does not say what a thing is or how big,
        else if (kind || material || quantity || focus.length > 0) score *= 0.4;
        // nor answer a question that is not about condition ("Are they interconnected?").
        else if (!ratingAnswers) score *= 0.5;
      }
    }
    if (label) {
      // A value that only repeats the question ("Penetrations: Roof") answers nothing.
      const value = valueWords.filter((w) => !STOPWORDS.has(w));
      if (value.length > 0 && value.every((w) => terms.some((t) => termMatches(t, new Set([w])))))
        score *= 0.5;
      // "Shading systems: N/A" says what is not there, which answers "is there …?" and not
      // what kind, how big or when.
      else if (NO_VALUE.test(valueText) && (kind || material || quantity || focus.length > 0)) {
        score *= 0.5;
        labelAnswers = false;
      }
      // A short value under a label the question names: "cooktop: Dacor".
      else if (value.length <= 6 && matched.some((t) => termMatches(t, label))) score *= 1.25;
      // "What kind of garage?": "2 Detached", not what its repairs cost ("Total: $0").
      if ((kind || material) && !moneyTerm && CURRENCY.test(valueText)) score *= 0.6;
      // "Is it in a flood zone?": "Flood Zone Code: X", not "Flood Zone Date: 08/19/2008". Only
      // a question of when or how long is answered by a date alone, or one of who signed it.
      if (!when && !quantity && !who && onlyDate(valueText)) score *= 0.6;
    }
    // A heading left as a line ("KITCHEN.") only repeats what is asked.
    const own = [...words].filter((w) => !STOPWORDS.has(w));
    if (own.length > 0 && own.every((w) => terms.some((t) => sameWord(t, w)))) score *= 0.3;
    // A duty in a standards-of-practice list ("E. identify the composition …").
    if (/^[A-Z]\.\s+\p{Ll}/u.test(f.text)) score *= 0.5;
    // A form's question ("What is the deck thickness?") asks; it does not answer.
    if (/\?\s*$/.test(f.text)) score *= 0.3;
    // A label with nothing after it ("Microwave Oven:") names what follows; it says nothing.
    // Sentences that end by pointing at a table ("… as follows:") have said something first:
    // a sentence ends and another starts ("… drive. Each image …"), not an abbreviation ("No. of
    // Units:").
    if (/:\s*$/.test(f.text) && !SAID_FIRST.test(f.text)) score *= 0.5;
    // A brand is a proper name: a capitalised word inside the text, not at its start.
    // Under a label, the value is the name: every word of it capitalised ("Brand: Coleman",
    // "GENERAL ELECTRIC"), not "Type/Brand: Mid efficiency gas".
    if (
      brand &&
      (label
        ? /\p{L}/u.test(valueText) &&
          valueText
            .trim()
            .split(/\s+/)
            .every((w) => !/^\p{L}/u.test(w) || /^\p{Lu}/u.test(w))
        : /[a-z,]\s+\p{Lu}[\p{Ll}\p{Lu}]+/u.test(f.text))
    )
      score *= 1.3;
    // "What condition are the roof shingles in?": what was found says it; what to do about it
    // ("Recommendation: roofer") does not.
    if (
      ratingAnswers &&
      !advice &&
      /^(recommendations?|recommended actions?|actions?)$/i.test(labelText.trim())
    )
      score *= 0.6;
    if (advice) {
      // What to do is said under a recommendation, or as an instruction ("Seal the crack").
      recommends =
        /recommend|should|advis/i.test(`${f.subject ?? ''} ${f.text.split(':')[0]}`) ||
        /^(recommendations?|advice)$/i.test(documents[f.doc]!.title.trim()) ||
        /^(the )?(recommendations?|advice|action)\b/i.test(f.text) ||
        INSTRUCTION.test(f.text) ||
        ADVISED.test(f.text);
      score *= recommends ? 1.5 : 0.4;
    }
    if (boilerplate(f.text) && !aboutScope) score *= 0.4;
    if (purposeAsked) score *= PURPOSE_FACT.test(f.text) ? 2 : 0.3;
    // General advice ("shingle defects can cause hidden leaks") rather than what was found.
    if (ADVICE.test(f.text)) score *= 0.6;
    if (material && [...words].some((w) => MATERIAL_WORDS.has(w))) score *= 1.3;
    // "What kind of foundation …?" of "Foundation: Foundation Cracks - Minor": a finding is
    // no kind.
    else if (material && kind && DEFECT_FACT.test(f.text)) score *= 0.7;
    if (/\bpage \d+ of \d+/i.test(f.text)) score *= 0.2; // a running header left in the text
    // A pointer to a table below, with nothing of its own after it but a few words (a title).
    const pointer = FORWARD_REFERENCE.exec(f.text);
    const after = pointer ? f.text.slice(pointer.index + pointer[0].length) : '';
    if (
      pointer &&
      !/\d/.test(after) &&
      after.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length <= 4
    )
      score *= 0.5;
    // What was said before about the report counts less than the report itself.
    if (documents[f.doc]?.memory) score *= 0.8;
    if (f.text.length > MAX_FACT_CHARS) score *= 0.8;
    // "How big is the larger shed?": a text that gives the measures of two of them or more
    // ("north shed – 180 sf; south shed – 96 sf") compares them; one shed's size does not.
    if (compared && comparesMeasures(f.text, compared)) score *= COMPARED_WEIGHT;
    return {
      ...f,
      score,
      coverage,
      matched,
      weights: weight,
      recommends,
      named: namedBy,
      counts: countsIt,
      labelAnswers: labelAnswers && /\p{L}|\d/u.test(valueText),
      reason,
    };
  });
  if (compared) favourExtreme(scored, compared);
  return scored;
}

/** What a comparative question compares: "the larger shed" asks sizes, "the oldest roof" years. */
interface Compared {
  /** The thing compared, as asked ("shed"). */
  noun: string;
  /** Sizes (an area) or years. */
  measure: 'size' | 'year';
  /** Whether the one asked for has the most of the measure (the larger, the newer). */
  most: boolean;
}

/** "the larger shed", "the oldest furnace": a degree, then the thing it compares. */
const COMPARED =
  /\b(larger|largest|bigger|biggest|smaller|smallest|older|oldest|newer|newest)\s+(\p{L}{3,})/iu;
/** Every area of a text and its unit (`AREA_UNIT`): "1,250 sf", "1.5 acres"; the figure captured. */
const AREAS = new RegExp(
  `\\b(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)\\s?${AREA_UNIT}(?![\\p{L}])`,
  'giu',
);
/** Every year of a text (`YEAR`, global, the year captured). */
const YEARS = new RegExp(`(${YEAR.source})`, 'g');
/** How much more a text that compares the measures asked weighs than one that gives one. */
const COMPARED_WEIGHT = 1.5;

/** The comparison a question asks for, or null. Pure. */
function comparedOf(query: string): Compared | null {
  const m = COMPARED.exec(query);
  // "Is the house older than 50 years?" compares nothing of the report's.
  if (!m || STOPWORDS.has(m[2]!.toLowerCase())) return null;
  const degree = m[1]!.toLowerCase();
  const year = /^(older|oldest|newer|newest)$/.test(degree);
  return {
    noun: m[2]!.toLowerCase(),
    measure: year ? 'year' : 'size',
    most: /^(larger|largest|bigger|biggest|newer|newest)$/.test(degree),
  };
}

/** The measures a text gives of the kind compared, as numbers. Pure. */
function measuresIn(text: string, compared: Compared): number[] {
  const pattern = compared.measure === 'year' ? YEARS : AREAS;
  return [...text.matchAll(pattern)].map((m) => Number(m[1]!.replace(/,/g, '')));
}

/** Whether a text names the thing compared and gives two of its measures or more. Pure. */
function comparesMeasures(text: string, compared: Compared): boolean {
  return (
    foldWords(text).some((w) => sameWord(w, compared.noun)) &&
    measuresIn(text, compared).length >= 2
  );
}

/**
 * Of the texts that compare the measures asked, those that give the extreme (the largest size of
 * all for "the larger shed") go first: two lists of the same sheds, one of a register's sizes and
 * one of the surveyor's, otherwise tie.
 */
function favourExtreme(scored: Scored[], compared: Compared): void {
  const extreme = (f: Scored): number => {
    const m = measuresIn(f.text, compared);
    return compared.most ? Math.max(...m) : -Math.min(...m);
  };
  const comparing = scored.filter((f) => f.score > 0 && comparesMeasures(f.text, compared));
  if (comparing.length < 2) return;
  const top = Math.max(...comparing.map(extreme));
  for (const f of comparing) if (extreme(f) === top) f.score *= 1.05;
}

function normalised(text: string): string {
  return foldWords(text).join(' ');
}

/** Same fact said twice (one inside the other, or the same words). */
function duplicates(a: string, b: string): boolean {
  const x = normalised(a);
  const y = normalised(b);
  return x === y || (x.length > 20 && y.includes(x)) || (y.length > 20 && x.includes(y));
}

/**
 * A fact shown whole; a sentence too long to show is shown from the clause before its first
 * matched word to the clause after its last, never cutting inside a matched word. Pure.
 */
export function shown(text: string, matched: readonly string[]): string {
  if (text.length <= MAX_FACT_CHARS) return text;
  const clauses = text.split(/(?<=[,;:])\s+/);
  const hits = clauses
    .map((c, i) => ({ i, hit: matched.some((t) => termMatches(t, new Set(foldWords(c)))) }))
    .filter((c) => c.hit)
    .map((c) => c.i);
  const from = Math.max(0, (hits[0] ?? 0) - 1);
  const to = Math.min(clauses.length, (hits.at(-1) ?? 0) + 2);
  const body = clauses.slice(from, to).join(' ');
  return `${from > 0 ? '… ' : ''}${body}${to < clauses.length ? ' …' : ''}`;
}

function sentence(text: string): string {
  // "… from $ 400,000 to $ 525,000: .": a form's blank after its last figure goes too, and an
  // amount is written as one ("$400,000").
  const t = text.replace(/[\s,;:–-]+(\.?)$/, '$1').replace(/([$£€]) (?=\d)/g, '$1');
  return /[.!?…)]$/.test(t) ? t : `${t}.`;
}

function citationOf(d: ContextDocument): string {
  return `[${d.citation ?? d.ref}]`;
}

/**
 * A subject as people read it. The words before a label on its line are its subject, and a label
 * read back from its colon over capitalised words can start inside a bracket or after a
 * connector ("Sample West (Town A & | Town B County) Summary:"): the subject then opens a bracket
 * or ends on a word left hanging ("Sample West (Town A &", "Roof Type /", "Description of the"),
 * which go. Pure.
 */
export function tidySubject(subject: string): string {
  let text = subject.trim();
  const open = text.lastIndexOf('(');
  if (open >= 0 && !text.slice(open).includes(')')) text = text.slice(0, open).trim();
  for (;;) {
    const cut = text.replace(/\s*(?:[&/,;:–-]|\b(?:and|or|of|the))$/i, '');
    if (cut === text) break;
    text = cut.trim();
  }
  return text;
}

/** A bracket the text closes before it opens one: the rest of a line its subject cut short. */
const CLOSES_FIRST = /^[^(]*\)/;

/**
 * The subject a labelled fact leaves to its heading: "Approximate age: 11 years" under
 * "Water Heater" is said as "Water Heater – approximate age: 11 years". Pure.
 */
function withSubject(fact: Scored, doc: ContextDocument): string {
  const title = doc.title.replace(/\s*\(attachment [^)]*\)$/, '').trim();
  const whole = fact.subject ?? title.split(/\s+>\s+/).at(-1) ?? title;
  if (!fact.labelled || !whole) return fact.text;
  // "Sample Isles (Town" before "A & Town B) Summary: …": one line, cut inside its bracket.
  if (
    fact.subject &&
    whole.lastIndexOf('(') > whole.lastIndexOf(')') &&
    CLOSES_FIRST.test(fact.text)
  )
    return `${whole.trim()} ${fact.text}`;
  const subject = tidySubject(whole);
  if (!subject) return fact.text;
  // "2200," over "Sample Avenue, Sample City …": a house number, its street on the next line.
  if (fact.subject && /^\d{1,6}$/.test(subject) && /^\p{Lu}/u.test(fact.text))
    return `${subject} ${fact.text}`;
  const subjectTerms = foldWords(subject).filter((w) => w.length >= 3 && !STOPWORDS.has(w));
  const factWords = new Set(foldWords(fact.text));
  if (subjectTerms.length === 0 || subjectTerms.every((t) => termMatches(t, factWords)))
    return fact.text;
  // "Capacity" becomes "capacity" after the subject; "AFUE" and "HVAC" stay as they are.
  // "Water Heater: …", a name in Title Case, keeps its case.
  const text =
    /^\p{Lu}\p{Ll}/u.test(fact.text) && !/^\p{Lu}\p{Ll}*\s+(&\s+)?\p{Lu}/u.test(fact.text)
      ? `${fact.text.charAt(0).toLowerCase()}${fact.text.slice(1)}`
      : fact.text;
  return `${subject} – ${text}`;
}

/** A labelled fact whose value is a rating and nothing else ("Roof: Serviceable"). */
function ratingOnly(fact: Fact): boolean {
  return fact.labelled && RATING_VALUE.test(fact.text);
}

/** The label of what was seen of an item, said under its rating. */
const OBSERVATION_LABEL = /^(observations?|comments?|findings?|notes?|remarks?|description)$/i;

/**
 * The observation said of a rated item, within the next three facts of its document and
 * before any other item's rating ("Observation: Downpipe is firm …" under "Ref 4.2 Downpipe,
 * side elevation: Satisfactory"). `facts`: every fact of the turn, those that score nothing
 * too, so that another item's rating always ends the search. Pure.
 */
function observationOf(rated: Scored, facts: readonly Scored[]): Scored | undefined {
  const after = facts
    .filter((f) => f.doc === rated.doc && f.index > rated.index && f.index <= rated.index + 3)
    .sort((a, b) => a.index - b.index);
  for (const f of after) {
    if (ratingOnly(f)) return undefined;
    if (f.labelled && OBSERVATION_LABEL.test(factLabel(f).trim())) return f;
  }
  return undefined;
}

/**
 * A fact for people, with its citation; `why`, a fact of the same label, said after it; `said`,
 * the fact said in other words (two counts of one grid).
 */
function stated(fact: Scored, doc: ContextDocument, why?: Scored, said?: string): string {
  const whole = said ?? sentence(shown(withSubject(fact, doc), fact.matched));
  const text = why ? `${whole} ${sentence(shown(factValue(why).trim(), why.matched))}` : whole;
  const from = doc.memory
    ? 'From your earlier conversation: '
    : doc.attachment
      ? `From the attachment ${doc.attachment}: `
      : '';
  return `${from}${text} ${citationOf(doc)}`;
}

/** "How many bedrooms and bathrooms …?": the two things counted. */
const TWO_COUNTED = /^\s*how many (\p{L}+) and (\p{L}+)\b/iu;

/** A count and nothing else ("3", "1.0"). */
const COUNT_VALUE = /^\s*\d{1,3}(?:\.\d)?\s*$/;

/** A labelled fact's first pair ("Total Bathrooms: 2.0" of "Total Bathrooms: 2.0; View: …"). */
function firstPair(f: Fact): string {
  return f.text.split(/;\s+/)[0]!.trim();
}

/** Whether `word` names `noun` or a word related to it ("bath" names bathrooms). Pure. */
function namesNoun(word: string, noun: string): boolean {
  return sameWord(word, noun) || (RELATED[noun] ?? []).some((r) => sameWord(r, word));
}

/** The count a labelled fact's first pair gives of `noun` ("4" of "Total Bedrooms: 4"), or null. */
function countOf(f: Fact, noun: string): string | null {
  const value = factValue(f).split(/;\s+/)[0]!.trim();
  if (!COUNT_VALUE.test(value)) return slashedCount(f, noun);
  return namesNoun(foldWords(factLabel(f)).at(-1) ?? '', noun) ? value : null;
}

/** Counts and nothing else, split by slashes ("7 / 3 / 2.5"). */
const SLASHED_COUNTS = /^\s*\d{1,3}(?:\.\d)?(?:\s*\/\s*\d{1,3}(?:\.\d)?)+\s*$/;

/**
 * The count of `noun` in a grid row that gives several counts under one label split the same way
 * ("Rooms/Beds/Baths: 7 / 3 / 2.5" gives 2.5 baths), in its first cell (the subject's, in a grid
 * of comparables), or null. Pure.
 */
function slashedCount(f: Fact, noun: string): string | null {
  if (!f.labelled) return null;
  // The first cell, without its column's title ("Subject: 7 / 3 / 2.5").
  const cell = factValue(f).split(/;\s+/)[0]!;
  const value = cell.slice(cell.lastIndexOf(': ') + 1).trim();
  if (!SLASHED_COUNTS.test(value)) return null;
  const parts = factLabel(f).split('/');
  const figures = value.split('/');
  if (parts.length !== figures.length) return null;
  const at = parts.findIndex((p) => foldWords(p).some((w) => namesNoun(w, noun)));
  return at < 0 ? null : figures[at]!.trim();
}

/** "Subject Photos – " of "Subject Photos – Total Bedrooms: 4": the subject a fact is said under. */
function saidUnder(fact: Scored, doc: ContextDocument): string {
  const full = withSubject(fact, doc);
  const before = full.toLowerCase().endsWith(fact.text.toLowerCase())
    ? full.slice(0, full.length - fact.text.length)
    : '';
  return / – $/.test(before) ? before : '';
}

/**
 * "How many bedrooms and bathrooms are there?" led by "Total Bedrooms: 4" in a grid whose next
 * label or two say "Total Bathrooms: 2.0": both counts, said as a person says them ("4 bedrooms
 * and 2.0 bathrooms"), with the grid's own words after, and the fact of the other count. A row
 * of counts under one label ("Rooms/Beds/Baths: 7 / 3 / 2.5") says both, or the one asked ("How
 * many bathrooms …?": "2.5 bathrooms"), the same way. Null when the lead is no such count or its
 * grid does not count the other. `facts`: every fact of the turn. Pure.
 */
function countsSaid(
  query: string,
  first: Scored,
  facts: readonly Scored[],
  doc: ContextDocument,
): { said: string; partner: Scored | null } | null {
  const asked = TWO_COUNTED.exec(query);
  if (!asked) {
    const noun = countedNoun(query);
    const count = noun === null ? null : slashedCount(first, noun);
    if (count === null) return null;
    return {
      said: `${count} ${noun} (${saidUnder(first, doc)}${firstPair(first)}).`,
      partner: null,
    };
  }
  const nouns = [asked[1]!.toLowerCase(), asked[2]!.toLowerCase()];
  const at = nouns.findIndex((n) => countOf(first, n) !== null);
  if (at < 0) return null;
  const other = nouns[1 - at]!;
  const partner =
    countOf(first, other) !== null
      ? first
      : facts.find(
          (f) =>
            f !== first &&
            f.doc === first.doc &&
            f.block === first.block &&
            Math.abs(f.index - first.index) <= 3 &&
            countOf(f, other) !== null,
        );
  if (!partner) return null;
  const [a, b] = at === 0 ? [first, partner] : [partner, first];
  const said = `${countOf(a, nouns[0]!)} ${nouns[0]} and ${countOf(b, nouns[1]!)} ${nouns[1]}`;
  const pairs = a === b ? firstPair(a) : `${firstPair(a)}; ${firstPair(b)}`;
  return {
    said: `${said} (${saidUnder(a, doc)}${pairs}).`,
    partner: partner === first ? null : partner,
  };
}

/** "What is the most common defect?": the thing a report counts most often, and what it is. */
const MOST_COMMON =
  /\bmost (?:common(?:ly)?|frequent(?:ly)?)\s+(?:(?:type|kind|sort)s?\s+of\s+)?(\p{L}{3,})/iu;
/** A count under a name and nothing else ("Blistering: 3"). */
const TALLY = /^\s*\d{1,4}\s*$/;
/** Labels whose figure is no count of a kind of thing: a total, an index, a score, an age. */
const NO_TALLY = /\b(total|index|score|rating|condition|age|life|years?|percent|rate|page)\b/i;
/** Counts a list of them holds at least, one after another. */
const MIN_TALLIES = 3;
/** How many of the next counts the answer names after the first. */
const TALLIES_SAID = 3;

/**
 * "What is the most common defect?" of a list of counts under their names ("Loose Boards: 11",
 * "Rusted Fixings: 4", "Blistering: 3" …): the name counted most, and the next few after it. A
 * list is three counts or more in one document, one after another with at most one other line
 * between two of them, one of whose names or whose document's title says the thing asked
 * ("Defective Rails" for defect). Null when no list says it or two names lead it.
 * `facts` in reading order. Pure.
 */
function mostCommon(
  query: string,
  facts: readonly Scored[],
  documents: readonly ContextDocument[],
): { said: string; fact: Scored; list: readonly Scored[] } | null {
  const noun = MOST_COMMON.exec(query)?.[1]?.toLowerCase();
  if (!noun) return null;
  const stem = noun.slice(0, Math.max(4, noun.length - 1));
  const says = (text: string): boolean => foldWords(text).some((w) => w.startsWith(stem));
  const lists: Scored[][] = [];
  let list: Scored[] = [];
  let gap = 0;
  for (const f of facts) {
    const tally = f.labelled && TALLY.test(factValue(f)) && !NO_TALLY.test(factLabel(f));
    const last = list.at(-1);
    if (last && (f.doc !== last.doc || (!tally && ++gap > 1))) {
      lists.push(list);
      list = [];
    }
    if (tally) {
      list.push(f);
      gap = 0;
    }
  }
  lists.push(list);
  const found = lists.find(
    (l) =>
      l.length >= MIN_TALLIES &&
      (l.some((f) => says(factLabel(f))) || says(documents[l[0]!.doc]?.title ?? '')),
  );
  if (!found) return null;
  const ranked = [...found].sort((a, b) => Number(factValue(b)) - Number(factValue(a)));
  const [top, second] = ranked;
  if (!top || !second || Number(factValue(top)) === Number(factValue(second))) return null;
  const named = (f: Scored): string => `${factLabel(f).trim()} (${factValue(f).trim()})`;
  const next = ranked.slice(1, 1 + TALLIES_SAID).map(named);
  const then = next.length > 1 ? `${next.slice(0, -1).join(', ')} and ${next.at(-1)}` : next[0];
  return { said: `Most common: ${named(top)}, then ${then}.`, fact: top, list: found };
}

/**
 * The local answer: the facts that answer the question, stated first and whole with their
 * citations; further facts that answer as well after them; a plain "the report does not say"
 * (with the nearest passage) when nothing answers. Pure.
 */
export function localAnswer(documents: readonly ContextDocument[], query: string): string {
  if (documents.every((d) => d.text.trim() === ''))
    return 'There is no report text to answer from yet: the report may still be processing.';
  const all = scoreFacts(documents, query);
  const scored = all
    .filter((f) => f.score > 0)
    .sort((a, b) => b.score - a.score || a.doc - b.doc || a.index - b.index);
  const best = scored[0];
  // "What is the most common defect?": a list that counts them answers, whatever else matches.
  const tallied = mostCommon(query, all, documents);
  if (tallied) {
    const also: Scored[] = [];
    for (const f of scored) {
      if (also.length >= MAX_FACTS - 1) break;
      if (f.matched.length === 0 || tallied.list.includes(f) || boilerplate(f.text)) continue;
      if (!also.some((a) => duplicates(a.text, f.text))) also.push(f);
    }
    const said = stated(tallied.fact, documents[tallied.fact.doc]!, undefined, tallied.said);
    return answered(said, also, documents);
  }
  const lead = 'The report does not say. Nothing in it answers this question directly.';
  if (!best || (best.matched.length === 0 && !best.named)) return lead;
  const chosen: Scored[] = [best];
  for (const f of scored.slice(1)) {
    if (chosen.length >= MAX_FACTS || f.score < FURTHER_SHARE * best.score) break;
    if (f.matched.length === 0 || boilerplate(f.text)) continue;
    if (chosen.some((c) => duplicates(c.text, f.text))) continue;
    chosen.push(f);
  }
  // Answered when the best fact covers enough of the question, or the facts together do
  // (a question of several parts, each answered by its own fact).
  const weights = best.weights;
  const total = [...weights.values()].reduce((n, w) => n + w, 0);
  const together = [...new Set(chosen.flatMap((f) => f.matched))].reduce(
    (n, t) => n + (weights.get(t) ?? 0),
    0,
  );
  // What to do about a crack rarely names the room again: a recommendation that names the
  // thing (one term of the question) answers.
  // Who: a person named under their role answers, though the role is said in other words
  // ("Inspector: …" for "Who inspected …?").
  const enough =
    best.recommends ||
    best.counts ||
    best.labelAnswers ||
    best.reason ||
    best.matched.includes('who')
      ? ANSWERED_SHARE / 2
      : ANSWERED_SHARE;
  // A fact that stands far above every other ("Water Supply Service: 3/4 in connection …" for
  // "What size is the water supply line?") answers though it does not say every word asked.
  const next = scored.find((f) => f !== best && !duplicates(f.text, best.text));
  const standsOut =
    best.coverage >= STANDS_OUT_COVERAGE && (!next || best.score >= STANDS_OUT_RATIO * next.score);
  if (best.coverage < enough && together < 0.6 * total && !standsOut)
    return `${lead}\n\nThe nearest passage: ${stated(best, documents[best.doc]!)}`;
  const [first, ...rest] = chosen;
  // A rating ("Water Heater: Needs Evaluation") says how a thing was found; what was seen under
  // the same label ("Water Heater: Puddle of water under the drain valve") says why: one answer.
  // An item's rating with its observation a line or two below ("Ref 4.2 Downpipe, side
  // elevation: Satisfactory", then "Observation: Downpipe is firm …") says why as well.
  const why = ratingOnly(first!)
    ? (rest.find(
        (f) =>
          f.doc === first!.doc &&
          f.labelled &&
          !ratingOnly(f) &&
          factLabel(f).trim().toLowerCase() === factLabel(first!).trim().toLowerCase(),
      ) ?? observationOf(first!, all))
    : undefined;
  const both = why ? null : countsSaid(query, first!, all, documents[first!.doc]!);
  const more = rest.filter((f) => f !== why && f !== both?.partner);
  // "Who appraised the property?" led by the letter that engaged someone to: said as who.
  const engagement = DEED.test(query) ? ENGAGED.exec(first!.text) : null;
  const letter =
    engagement && queryTerms(query).some((t) => sameDeed(t, engagement[3]!)) ? engagement : null;
  const said = letter
    ? `${letter[1]}, to whom the letter is addressed: ${sentence(letter[2]!)}`
    : both?.said;
  return answered(stated(first!, documents[first!.doc]!, why, said), more, documents);
}

/** An answer: its lead, stated, then the further facts under "The report also says:". Pure. */
function answered(
  lead: string,
  more: readonly Scored[],
  documents: readonly ContextDocument[],
): string {
  const lines = [lead];
  if (more.length > 0) {
    lines.push('', 'The report also says:');
    for (const f of more) lines.push(`- ${stated(f, documents[f.doc]!)}`);
  }
  return lines.join('\n');
}
