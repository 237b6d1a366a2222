/**
 * What people say, made readable by one set of patterns: Devanagari words written in Latin
 * letters as Hinglish speakers write them (कल → kal, साढ़े → saadhe, सोमवार → somvar),
 * Devanagari digits as ASCII (५ → 5), letters in lower case, punctuation as spaces. Each
 * character of the result remembers where it came from, so the words read can be quoted
 * as they were said.
 */

const DEVANAGARI_WORDS: Record<string, string> = {
  // days
  'आज': 'aaj', 'कल': 'kal', 'परसों': 'parso', 'परसो': 'parson', 'नरसों': 'narso',
  'अगले': 'agle', 'अगला': 'agla', 'अगली': 'agli', 'इस': 'is', 'आने': 'aane', 'वाले': 'vaale', 'वाला': 'vaala',
  'हफ्ते': 'hafte', 'हफ्ता': 'hafta', 'हफ्त': 'hafte', 'सप्ताह': 'hafte', 'दिन': 'din', 'दिनों': 'din',
  'बाद': 'baad', 'में': 'mein', 'मे': 'mein', 'को': 'ko', 'तारीख': 'tarikh', 'तारीख़': 'tarikh', 'तक': 'tak', 'से': 'se',
  'के': 'ke', 'की': 'ki', 'बीच': 'beech', 'या': 'ya', 'फिर': 'phir', 'घंटे': 'ghante', 'घंटा': 'ghanta', 'घंटों': 'ghante',
  'मिनट': 'minute', 'आधे': 'aadhe', 'आधा': 'aadha',
  'सोमवार': 'somvar', 'मंगलवार': 'mangalvar', 'बुधवार': 'budhvar', 'गुरुवार': 'guruvar', 'गुरूवार': 'guruvar',
  'बृहस्पतिवार': 'brihaspativar', 'शुक्रवार': 'shukravar', 'शनिवार': 'shanivar', 'रविवार': 'ravivar', 'इतवार': 'itvaar',
  // parts of the day
  'सुबह': 'subah', 'सुबे': 'subah', 'सवेरे': 'savere', 'दोपहर': 'dopahar', 'शाम': 'shaam', 'रात': 'raat', 'रात्रि': 'raat',
  // the clock
  'बजे': 'baje', 'बज': 'baj', 'बजकर': 'bajkar', 'साढे': 'saadhe', 'सवा': 'sawa', 'पौने': 'paune', 'डेढ': 'dedh', 'ढाई': 'dhai',
  // numbers
  'एक': 'ek', 'दो': 'do', 'तीन': 'teen', 'चार': 'chaar', 'पांच': 'paanch', 'पाँच': 'paanch', 'छह': 'chhah', 'छः': 'chhah', 'छे': 'chhah',
  'सात': 'saat', 'आठ': 'aath', 'नौ': 'nau', 'दस': 'das', 'ग्यारह': 'gyarah', 'बारह': 'barah', 'पंद्रह': 'pandrah', 'बीस': 'bees', 'तीस': 'tees',
  // months
  'जनवरी': 'january', 'फरवरी': 'february', 'मार्च': 'march', 'अप्रैल': 'april', 'मई': 'may', 'जून': 'june', 'जुलाई': 'july',
  'अगस्त': 'august', 'सितंबर': 'september', 'सितम्बर': 'september', 'अक्टूबर': 'october', 'अक्तूबर': 'october',
  'नवंबर': 'november', 'नवम्बर': 'november', 'दिसंबर': 'december', 'दिसम्बर': 'december',
  // words that speak of a callback (for the sentence kept when no time is said)
  'नहीं': 'nahi', 'मत': 'mat', 'बाद में': 'baad mein', 'दोबारा': 'dobara',
};

const NUKTA = /\u093C/g;

export interface Normalized {
  /** The text to read: lower case, Latin letters and ASCII digits where they mean the same. */
  text: string;
  /** The words of the original text that `text.slice(start, end)` came from. */
  original(start: number, end: number): string;
  /** Where punctuation that ends a clause (, ; ! ? ।) stood: it is a space in `text`. */
  breaks: number[];
  /** Whether the text holds Devanagari letters. */
  devanagari: boolean;
}

/** `text` made readable by the patterns, each character mapped back to the original. */
export function normalize(text: string): Normalized {
  // Most texts have no Devanagari, and lower case keeps their length: each character maps to itself.
  if (!/[\u0900-\u097F]/.test(text)) {
    const lower = text.toLowerCase();
    if (lower.length === text.length) {
      const breaks: number[] = [];
      const normalized = lower.replace(/[,;!?()"“”\[\]{}|’‘]/g, (c, at: number) => {
        if (/[,;!?]/.test(c)) breaks.push(at);
        return c === '’' || c === '‘' ? "'" : ' ';
      });
      return { text: normalized, devanagari: false, breaks, original: (start, end) => (end <= start ? '' : trimEnd(text.slice(start, end).trim())) };
    }
  }
  const out: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const push = (s: string, a: number, b: number) => {
    for (const ch of s) {
      out.push(ch);
      from.push(a);
      to.push(b);
    }
  };
  let devanagari = false;
  const breaks: number[] = [];
  const parts = /[\u0900-\u097F]+|[\s\S]/gu;
  for (const m of text.matchAll(parts)) {
    const s = m[0];
    const at = m.index;
    if (/[\u0900-\u097F]/.test(s)) {
      // Digits and dandas one by one; a word as a whole.
      let i = 0;
      for (const run of s.split(/([\u0964\u0965\u0966-\u096F]+)/)) {
        if (run === '') continue;
        if (/^[\u0964\u0965\u0966-\u096F]+$/.test(run)) {
          for (let k = 0; k < run.length; k++) {
            const c = run.charCodeAt(k);
            if (c < 0x0966) breaks.push(out.length);
            push(c >= 0x0966 ? String(c - 0x0966) : ' ', at + i + k, at + i + k + 1);
          }
        } else {
          devanagari = true;
          const word = run.normalize('NFC').replace(NUKTA, '');
          const latin = DEVANAGARI_WORDS[word] ?? DEVANAGARI_WORDS[word.replace(/ं/g, '')] ?? run;
          push(latin, at + i, at + i + run.length);
        }
        i += run.length;
      }
    } else if (/[,;!?()"“”\[\]{}|]/.test(s)) {
      if (/[,;!?]/.test(s)) breaks.push(out.length);
      push(' ', at, at + 1);
    } else if (s === '’' || s === '‘') {
      push("'", at, at + 1);
    } else {
      push(s.toLowerCase().length === 1 ? s.toLowerCase() : s, at, at + 1);
    }
  }
  const normalized = out.join('');
  return {
    text: normalized,
    devanagari,
    breaks,
    original: (start, end) => {
      if (end <= start) return '';
      return trimEnd(text.slice(from[start]!, to[end - 1]!).trim());
    },
  };
}

/** Words quoted without the punctuation that ends their sentence. */
const trimEnd = (s: string) => s.replace(/[\s.,;:!?\u0964]+$/, '');
