/**
 * The words of a simulated call: a transcript that opens with the agent's greeting,
 * follows its call purpose, uses the contact's name (and city, when `extra` has one),
 * and ends the way the outcome says; plus the one- or two-sentence summary. Built on
 * demand from the call's seed, so 100,000 stored calls do not hold 100,000 transcripts.
 */
import { Rng } from './rng.js';
import { personaOf, type Fate } from './fate.js';
import type { Call, Script } from './world.js';

export interface Turn {
  role: 'agent' | 'user';
  text: string;
  timestamp: string;
}

const WHENS = ['tomorrow morning', 'tomorrow at 4 pm', 'this evening after 6', 'on Monday', 'next week', 'on Friday afternoon'];

const OPENERS: Record<string, string> = {
  hi: 'Haan, hello?', mr: 'Haan, bola?', ta: 'Vanakkam, sollunga?', te: 'Hello, cheppandi?', kn: 'Hello, heli?',
  ml: 'Hello, parayoo?', bn: 'Hello, bolun?', gu: 'Hello, bolo?', pa: 'Haanji, hello?',
};

function firstName(call: Call): string {
  const n = call.contact.name.trim();
  return n ? n.split(/\s+/)[0]! : 'there';
}

function displayName(call: Call): string {
  return call.contact.name.trim() || 'The contact';
}

function purposePhrase(script: Script): string {
  const p = script.call_purpose.trim().replace(/[.!]+$/, '');
  if (!p) return 'a quick follow-up';
  return /^[A-Z][a-z]/.test(p) ? p[0]!.toLowerCase() + p.slice(1) : p;
}

const VERBS = /^(follow|confirm|remind|collect|schedule|book|check|share|discuss|invite|offer|verify|update|qualify|gather|get|ask|introduce|tell|help|understand|renew|sell|survey|welcome|thank|inform|notify|recover|remind)\b/i;

/** "Follow up on X" reads as "calling to follow up on X"; "Your loan application" as "calling about ...". */
function callingAbout(script: Script): string {
  const p = purposePhrase(script);
  return VERBS.test(p) ? `I'm calling to ${p}` : `I'm calling about ${p}`;
}

function when(call: Call): string {
  return new Rng(`${call.call_id}:when`).pick(WHENS);
}

function city(call: Call): string | undefined {
  const extra = call.contact.extra;
  if (!extra || typeof extra !== 'object') return undefined;
  const e = extra as Record<string, unknown>;
  const c = e.city ?? e.City ?? e.location;
  return typeof c === 'string' && c ? c : undefined;
}

/** `{name}`, `{{name}}` and `{first_name}` in a greeting become the contact's name. */
function personalize(text: string, call: Call): string {
  return text
    .replace(/\{\{\s*name\s*\}\}|\{\s*name\s*\}/gi, call.contact.name.trim() || 'there')
    .replace(/\{\{\s*first_name\s*\}\}|\{\s*first_name\s*\}/gi, firstName(call));
}

export function summarize(call: Call, script: Script, fate: Fate): string {
  const who = displayName(call);
  const purpose = purposePhrase(script);
  switch (fate.status === 'completed' ? fate.outcome : fate.status) {
    case 'requirements_gathered': return `${who} was interested and shared their requirements (${purpose}). The details were recorded for follow-up.`;
    case 'callback_scheduled': return `${who} was busy and asked to be called back ${when(call)}. The agent scheduled the callback.`;
    case 'not_interested': return `${who} said they were not interested (${purpose}) and ended the call.`;
    case 'message_taken': return `${who} could not talk and left a message for the team. The agent took it down.`;
    case 'information_provided': return `${who} had questions about the call (${purpose}). The agent answered them.`;
    case 'wrong_number': return `The person who answered said ${who} cannot be reached at this number.`;
    case 'do_not_call': return `${who} asked not to be called again. The number was marked do-not-call.`;
    case 'no_answer': return `No answer after ${fate.duration} seconds of ringing.`;
    default: return `The call could not be connected. ${fate.error ?? ''}`.trim();
  }
}

/**
 * An agent whose prompt asks it to disclose that it is an AI says so in its first turn,
 * as the rules on artificial voices require; one whose prompt does not, does not, so a
 * rule that checks for the disclosure has something to find and something to miss.
 */
const DISCLOSE = /\b(disclose|disclosure)\b|\bsay (that )?you are an AI\b/i;

const DISCLOSURE: Record<string, string> = {
  en: 'I am an AI assistant, and this call may be recorded.',
  hi: 'मैं एक AI सहायक हूँ, और यह कॉल रिकॉर्ड की जा सकती है।',
};

/** The agent's own lines for a Hindi agent, in Devanagari; the contact's stay as people type them. */
const HINDI: Record<string, string[]> = {
  wrong_number: ['असुविधा के लिए माफ़ी चाहती हूँ। मैं हमारे रिकॉर्ड ठीक कर दूँगी। आपका दिन शुभ हो।'],
  do_not_call: ['मैं आपकी पूछताछ के सिलसिले में कॉल कर रही हूँ।', 'समझ गई। मैंने आपका नंबर हमारी सूची से हटा दिया है। परेशानी के लिए माफ़ी।'],
  not_interested: ['धन्यवाद। मैं आपकी पूछताछ के सिलसिले में कॉल कर रही हूँ। क्या आपके पास एक मिनट है?', 'कोई बात नहीं। आपके समय के लिए धन्यवाद।'],
  callback_scheduled: ['मैं समझती हूँ। मैं आपकी पूछताछ के सिलसिले में कॉल कर रही हूँ। आपसे कब बात करना ठीक रहेगा?', 'ठीक है, मैंने कॉल-बैक तय कर दिया है। तब बात करते हैं।'],
  message_taken: ['कोई बात नहीं। मैं आपकी पूछताछ के सिलसिले में कॉल कर रही हूँ। क्या आप हमारी टीम के लिए संदेश छोड़ना चाहेंगे?', 'मैंने आपका संदेश लिख लिया है और आगे भेज दिया है। धन्यवाद।'],
  information_provided: ['नमस्ते, मैं आपकी पूछताछ के सिलसिले में कॉल कर रही हूँ।', 'अच्छा सवाल है। मैं आपको पूरी जानकारी भेज दूँगी।'],
  requirements_gathered: ['बढ़िया। मैं आपकी पूछताछ के सिलसिले में कॉल कर रही हूँ। क्या आप अपनी ज़रूरत के बारे में थोड़ा बताएँगे?', 'समझ गई। क्या मुझे कुछ और नोट करना चाहिए?', 'धन्यवाद। मैंने सब नोट कर लिया है और हमारी टीम जल्द ही संपर्क करेगी।'],
};

/** `rng` continues the generator that decided the fate. */
export function transcript(call: Call, script: Script, fate: Fate, rng: Rng): Turn[] {
  if (fate.status !== 'completed') return [];
  const first = firstName(call);
  const lang = script.language.split('-')[0]!;
  const opener = OPENERS[lang] ?? 'Hello?';
  const greeting = personalize(script.greeting, call) || `Hello, this is ${script.agent_name}.`;
  const disclosure = DISCLOSE.test(`${script.prompt}\n${script.campaign_prompt}`) && !/\bAI\b/.test(greeting) ? ` ${DISCLOSURE[lang] ?? DISCLOSURE.en}` : '';
  const lines: Array<[Turn['role'], string]> = [['agent', `${greeting}${disclosure}`]];
  const at = city(call);
  if (personaOf(call.contact.extra) === 'wrong_language') {
    // The contact does not speak the agent's language, and the agent follows the contact into another one.
    lines.push(['user', `${opener} Sorry, I do not follow. ${lang === 'hi' ? 'English please?' : 'Hindi mein boliye?'}`]);
    lines.push(['agent', lang === 'hi'
      ? 'Of course, I can continue in English. I will send you the details by message.'
      : 'ज़रूर, मैं हिंदी में बात कर सकती हूँ। मैं आपको पूरी जानकारी संदेश में भेज दूँगी।']);
    lines.push(['user', 'Okay, thank you.']);
    return timed(call, fate, rng, lines);
  }
  switch (fate.outcome) {
    case 'wrong_number':
      lines.push(['user', `${opener} Sorry, who? There is no ${first} at this number.`]);
      lines.push(['agent', `My apologies for the trouble. I will update our records. Have a good day.`]);
      break;
    case 'do_not_call':
      lines.push(['user', `${opener} Yes, this is ${first}.`]);
      lines.push(['agent', `${callingAbout(script)}.`]);
      lines.push(['user', 'Please do not call this number again.']);
      lines.push(['agent', 'Understood. I have removed your number from our list. Sorry to disturb you.']);
      break;
    case 'not_interested':
      lines.push(['user', `${opener} Yes, speaking.`]);
      lines.push(['agent', `Thanks, ${first}. ${callingAbout(script)}. Do you have a minute?`]);
      lines.push(['user', rng.pick(['Sorry, I am not interested.', 'No thanks, not right now.', 'I already have something for that, not interested.'])]);
      lines.push(['agent', `No problem at all, ${first}. Thank you for your time.`]);
      break;
    case 'callback_scheduled': {
      const w = when(call);
      lines.push(['user', `${opener} Yes, this is ${first}, but I am in the middle of something.`]);
      lines.push(['agent', `I understand. ${callingAbout(script)}. When would be a better time?`]);
      lines.push(['user', `Can you call me ${w}?`]);
      lines.push(['agent', `Sure, I have scheduled a callback ${w}. Talk to you then, ${first}.`]);
      break;
    }
    case 'message_taken':
      lines.push(['user', `${opener} ${first} here, but I can't talk right now.`]);
      lines.push(['agent', `That's fine. ${callingAbout(script)}. Would you like to leave a message for our team?`]);
      lines.push(['user', rng.pick(['Please send me the details on WhatsApp.', 'Ask someone to email me the brochure.', 'Tell them I will call back on Monday.'])]);
      lines.push(['agent', `I have taken your message and passed it on. Thank you, ${first}.`]);
      break;
    case 'information_provided':
      lines.push(['user', `${opener} Yes, this is ${first}.`]);
      lines.push(['agent', `Hi ${first}, ${callingAbout(script).replace("I'm", 'I am')}.`]);
      lines.push(['user', rng.pick(['What does it cost?', 'How long does the process take?', 'Is this available in my area?'])]);
      lines.push(['agent', `Good question. ${rng.pick(['I can share the current plans and pricing with you.', 'It usually takes about a week from start to finish.', 'Yes, we cover your area.'])}${at ? ` That includes ${at}.` : ''}`]);
      lines.push(['user', 'Okay, that helps. Thank you.']);
      break;
    default:
      lines.push(['user', `${opener} Yes, this is ${first}.`]);
      lines.push(['agent', `Great. ${callingAbout(script)}. Could you tell me a little about what you need?`]);
      lines.push(['user', `${rng.pick(['I am looking for something within my budget', 'We need it set up in the next month', 'I want to compare a few options first'])}${at ? `, and I am based in ${at}` : ''}.`]);
      lines.push(['agent', 'Understood. Is there anything else I should note down?']);
      lines.push(['user', rng.pick(['No, that is all.', 'Just send me the details by email.', 'Please make sure someone follows up.'])]);
      lines.push(['agent', `Thank you, ${first}. I have noted everything and our team will follow up soon.`]);
  }
  lines.push(['user', rng.pick(['Okay, bye.', 'Thank you, bye.', 'Bye.'])]);
  if (lang === 'hi') {
    const own = HINDI[fate.outcome ?? ''] ?? HINDI.requirements_gathered!;
    let k = 0;
    for (let i = 1; i < lines.length; i++) {
      if (lines[i]![0] === 'agent' && k < own.length) lines[i] = ['agent', own[k++]!];
    }
  }
  return timed(call, fate, rng, lines);
}

/** Spreads the turns over the call, after a few seconds of ringing. */
function timed(call: Call, fate: Fate, rng: Rng, lines: Array<[Turn['role'], string]>): Turn[] {
  const start = call._start;
  const ring = rng.int(3, 9);
  const talk = Math.max(1, fate.duration - ring);
  return lines.map(([role, text], i) => ({
    role,
    text,
    timestamp: new Date(start + (ring + (talk * i) / lines.length) * 1000).toISOString(),
  }));
}
