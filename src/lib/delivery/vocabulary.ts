/**
 * The catalog's names in Hindi, as Indian traders write them on WhatsApp: product codes stay in
 * Latin letters (PP, HDPE, EDC, PTA: that is how they are quoted, even in Hindi), grade, place
 * and feedstock words are Devanagari. Messages name prices with these (quoteLine.ts), and the
 * price bot reads Devanagari questions through the same words plus the other spellings traders
 * type (`readingAliases`). Keyed by the catalog's own slugs and names, so a catalog entry
 * without a Hindi name here falls back to its English name (and a unit test lists none missing).
 */

/** City slug → Hindi. */
export const CITY_HI: Readonly<Record<string, string>> = {
  ahmedabad: 'अहमदाबाद',
  mumbai: 'मुंबई',
  delhi: 'दिल्ली',
  kolkata: 'कोलकाता',
  bangalore: 'बेंगलुरु',
  pune: 'पुणे',
  indore: 'इंदौर',
};

/** Grade name (the catalog's) → Hindi. */
export const GRADE_HI: Readonly<Record<string, string>> = {
  Raffia: 'रैफ़िया',
  Film: 'फ़िल्म',
  'Injection moulding': 'इंजेक्शन मोल्डिंग',
  ICP: 'ICP',
  'Random copolymer': 'रैंडम कोपॉलिमर',
  Injection: 'इंजेक्शन',
  'Blow moulding': 'ब्लो मोल्डिंग',
  'Roto moulding': 'रोटो मोल्डिंग',
  Lamination: 'लैमिनेशन',
  General: 'जनरल',
  Extrusion: 'एक्सट्रूज़न',
};

/** Feedstock slug → its short name in messages, English and Hindi. */
export const FEEDSTOCK_NAMES: Readonly<Record<string, { readonly en: string; readonly hi: string }>> = {
  Crude: { en: 'Brent crude', hi: 'ब्रेंट क्रूड' },
  Naphtha: { en: 'Naphtha', hi: 'नेफ़्था' },
  Propylene: { en: 'Propylene', hi: 'प्रोपिलीन' },
  Ethylene: { en: 'Ethylene', hi: 'एथिलीन' },
  Styrene: { en: 'Styrene', hi: 'स्टाइरीन' },
  EDC: { en: 'EDC', hi: 'EDC' },
  VCM: { en: 'VCM', hi: 'VCM' },
  PTA: { en: 'PTA', hi: 'PTA' },
  MEG: { en: 'MEG', hi: 'MEG' },
  ACN: { en: 'ACN', hi: 'ACN' },
  Butadiene: { en: 'Butadiene', hi: 'ब्यूटाडीन' },
  VA: { en: 'VAM', hi: 'VAM' },
};

/** Sub-market display name → Hindi (codes such as NEA, SEA, CFR SEA stay as they are). */
export const MARKET_HI: Readonly<Record<string, string>> = {
  Japan: 'जापान',
  China: 'चीन',
  Korea: 'कोरिया',
};

/**
 * Devanagari (and a few Latin) spellings the bot reads as the catalog's words. Keys are written
 * without the nukta dot and without spaces inside a word (the bot strips both before looking
 * up), so "फ़िल्म" and "फिल्म", "एच डी पी ई" and "एचडीपीई" read alike.
 */
export const READING_ALIASES: Readonly<Record<string, string>> = {
  // Polymers, as traders spell the letters.
  पीपी: 'pp',
  पोलीप्रोपीलीन: 'pp',
  पॉलीप्रोपाइलीन: 'pp',
  पॉलीप्रोपिलीन: 'pp',
  एचडीपीई: 'hdpe',
  एचडीपी: 'hdpe',
  एलएलडीपीई: 'lldpe',
  एलएलडीपी: 'lldpe',
  एलडीपीई: 'ldpe',
  एलडीपी: 'ldpe',
  पीवीसी: 'pvc',
  // Grades.
  रैफिया: 'raffia',
  रेफिया: 'raffia',
  राफिया: 'raffia',
  फिल्म: 'film',
  फ़िल्म: 'film',
  इंजेक्शन: 'injection',
  मोल्डिंग: 'moulding',
  ब्लो: 'blow',
  रोटो: 'roto',
  लैमिनेशन: 'lamination',
  लेमिनेशन: 'lamination',
  जनरल: 'general',
  एक्सट्रूजन: 'extrusion',
  एक्सट्रूज़न: 'extrusion',
  रैंडम: 'random',
  कोपॉलिमर: 'copolymer',
  आईसीपी: 'icp',
  // Cities.
  मुंबई: 'mumbai',
  मुम्बई: 'mumbai',
  बंबई: 'mumbai',
  बम्बई: 'mumbai',
  दिल्ली: 'delhi',
  देहली: 'delhi',
  अहमदाबाद: 'ahmedabad',
  कोलकाता: 'kolkata',
  कलकत्ता: 'kolkata',
  बेंगलुरु: 'bangalore',
  बैंगलोर: 'bangalore',
  बंगलौर: 'bangalore',
  पुणे: 'pune',
  पूना: 'pune',
  इंदौर: 'indore',
  // Feedstocks and markets.
  क्रूड: 'brent',
  ब्रेंट: 'brent',
  नेफ्था: 'naphtha',
  नैफ्था: 'naphtha',
  प्रोपिलीन: 'propylene',
  प्रोपलीन: 'propylene',
  एथिलीन: 'ethylene',
  इथिलीन: 'ethylene',
  स्टाइरीन: 'styrene',
  ब्यूटाडीन: 'butadiene',
  जापान: 'japan',
  चीन: 'china',
  कोरिया: 'korea',
  डॉलर: 'usdinr',
  डालर: 'usdinr',
  // Places of a price.
  आयात: 'import',
  इम्पोर्ट: 'import',
  सीआईएफ: 'cif',
};
