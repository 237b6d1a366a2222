/** True when a check's result is a normalized number rather than a reason. */
export function isE164(result) {
    return result.charCodeAt(0) === 43; // "+"
}
