/**
 * India's GST state codes: the first two digits of every GSTIN, and the code an invoice prints
 * beside the recipient's state and the place of supply. The current list (since 26 Jan 2020,
 * when Daman and Diu (25) joined Dadra and Nagar Haveli under 26; 28 was undivided Andhra
 * Pradesh, whose registrations moved to 37). "Other Territory" (97) and the Centre's
 * jurisdiction (99) are not places a subscriber lives in, so they are not offered.
 */

export interface GstState {
  /** Two digits, as the GSTIN starts. */
  readonly code: string;
  readonly name: string;
  /**
   * A Union Territory without a legislature: within it, the state half of GST is UTGST
   * (Union Territory tax) instead of SGST. Delhi, Puducherry and Jammu and Kashmir have
   * legislatures and levy SGST.
   */
  readonly unionTerritory: boolean;
}

const state = (code: string, name: string, unionTerritory = false): GstState => ({ code, name, unionTerritory });

/** In code order. */
export const GST_STATES: readonly GstState[] = [
  state('01', 'Jammu and Kashmir'),
  state('02', 'Himachal Pradesh'),
  state('03', 'Punjab'),
  state('04', 'Chandigarh', true),
  state('05', 'Uttarakhand'),
  state('06', 'Haryana'),
  state('07', 'Delhi'),
  state('08', 'Rajasthan'),
  state('09', 'Uttar Pradesh'),
  state('10', 'Bihar'),
  state('11', 'Sikkim'),
  state('12', 'Arunachal Pradesh'),
  state('13', 'Nagaland'),
  state('14', 'Manipur'),
  state('15', 'Mizoram'),
  state('16', 'Tripura'),
  state('17', 'Meghalaya'),
  state('18', 'Assam'),
  state('19', 'West Bengal'),
  state('20', 'Jharkhand'),
  state('21', 'Odisha'),
  state('22', 'Chhattisgarh'),
  state('23', 'Madhya Pradesh'),
  state('24', 'Gujarat'),
  state('26', 'Dadra and Nagar Haveli and Daman and Diu', true),
  state('27', 'Maharashtra'),
  state('29', 'Karnataka'),
  state('30', 'Goa'),
  state('31', 'Lakshadweep', true),
  state('32', 'Kerala'),
  state('33', 'Tamil Nadu'),
  state('34', 'Puducherry'),
  state('35', 'Andaman and Nicobar Islands', true),
  state('36', 'Telangana'),
  state('37', 'Andhra Pradesh'),
  state('38', 'Ladakh', true),
];

const byCode = new Map(GST_STATES.map((s) => [s.code, s]));

export const findGstState = (code: string | null | undefined): GstState | undefined => (code ? byCode.get(code.trim()) : undefined);

/**
 * The state a GSTIN is registered in: its first two digits. Undefined when they name no
 * current state (the caller validates the GSTIN itself with src/lib/gstin.ts).
 */
export const stateOfGstin = (gstin: string): GstState | undefined => findGstState(gstin.trim().slice(0, 2));

/** "Maharashtra (27)", as an invoice prints a state with its code. */
export const stateWithCode = (state: GstState): string => `${state.name} (${state.code})`;
