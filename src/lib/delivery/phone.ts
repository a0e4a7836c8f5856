/**
 * WhatsApp numbers as the Cloud API names them: international digits without `+` (E.164,
 * 8–15 digits). A trader types `+91 98200 12345`, `098200 12345` or `9820012345`; a bare
 * ten-digit Indian mobile number (first digit 6–9) gets the country code 91.
 */

/** The number in WhatsApp's form (`919820012345`), or null when it is not a phone number. */
export function whatsappNumberOf(input: string): string | null {
  const text = input.trim();
  if (!/^\+?[\d ().-]{6,24}$/.test(text)) return null;
  let digits = text.replace(/\D/g, '');
  if (!text.startsWith('+')) {
    if (/^0[6-9]\d{9}$/.test(digits)) digits = `91${digits.slice(1)}`;
    else if (/^[6-9]\d{9}$/.test(digits)) digits = `91${digits}`;
    else if (digits.startsWith('00')) digits = digits.slice(2);
  }
  if (!/^[1-9]\d{7,14}$/.test(digits)) return null;
  return digits;
}

/** `+91 98200 12345` style for people (Indian numbers grouped 5-5, others as digits). */
export function displayNumber(number: string): string {
  if (/^91[6-9]\d{9}$/.test(number)) return `+91 ${number.slice(2, 7)} ${number.slice(7)}`;
  return `+${number}`;
}
