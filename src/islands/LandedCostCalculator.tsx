/**
 * The landed-cost calculator. Server-rendered as a plain GET form (works without JavaScript:
 * the page computes the result from the query); hydrated, it recomputes on every keystroke
 * and shows each invalid input's message beside it.
 */
import { useMemo, useState } from 'react';
import { LANDED_COST_FIELDS, landedCost, parityGap, parseLandedCostInput, type LandedCost, type LandedCostField } from '../lib/landedCost.ts';
import { formatNumber, formatRupees as rupees } from '../lib/numbers.ts';

/** The customs notification the exchange rate was prefilled from. */
export interface NotifiedRate {
  readonly rate: number;
  /** "67/2026-Customs (N.T.)" */
  readonly number: string;
  /** "20 Nov 2026" */
  readonly effectiveFrom: string;
}

/** The domestic price the landed cost is set against. */
export interface DomesticPrice {
  /** "PP Raffia ex-works Mumbai, incl. 18% GST, 23 Nov 2026" */
  readonly label: string;
  readonly perKg: number;
}

export interface LandedCostCalculatorProps {
  readonly initial: Readonly<Record<LandedCostField, string>>;
  readonly initialResult: LandedCost | null;
  readonly initialErrors: Partial<Record<LandedCostField, string>>;
  /** Kept in the form so a no-JS submit keeps the chosen prefill grade. */
  readonly grade: string;
  readonly notified: NotifiedRate | null;
  readonly domestic: DomesticPrice | null;
}

export default function LandedCostCalculator({ initial, initialResult, initialErrors, grade, notified, domestic }: LandedCostCalculatorProps) {
  const [values, setValues] = useState<Record<LandedCostField, string>>({ ...initial });
  const [touched, setTouched] = useState(false);
  const parsed = useMemo(() => parseLandedCostInput(values), [values]);
  const result = touched ? (parsed.ok ? landedCost(parsed.value) : null) : initialResult;
  const errors = touched ? (parsed.ok ? {} : parsed.errors) : initialErrors;
  const rateUsed = parsed.ok ? parsed.value.exchangeRate : null;
  const gap = result && domestic ? parityGap(result, domestic.perKg) : null;

  return (
    <form className="card calculator" method="get" data-testid="landed-cost-form" noValidate>
      <input type="hidden" name="grade" value={grade} />
      <div className="calculator-fields">
        {LANDED_COST_FIELDS.map(({ field, label, min, max, step }) => {
          const error = errors[field];
          return (
            <p key={field} className="calculator-field">
              <label htmlFor={`lc-${field}`}>{label}</label>
              <input
                id={`lc-${field}`}
                name={field}
                type="number"
                inputMode="decimal"
                min={min}
                max={max}
                step={step}
                required
                value={values[field]}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `lc-${field}-error` : undefined}
                onChange={(event) => {
                  const text = event.currentTarget.value;
                  setTouched(true);
                  setValues((v) => ({ ...v, [field]: text }));
                }}
              />
              {error && (
                <span id={`lc-${field}-error`} className="field-error" role="alert">
                  {error}
                </span>
              )}
            </p>
          );
        })}
      </div>
      {/* Recomputes live with JavaScript; without it, this submits the form to the server. */}
      <p className="calculator-actions">
        <button className="btn btn-primary" type="submit">
          Calculate
        </button>
      </p>
      {result ? (
        <dl className="calculator-result" data-testid="landed-cost-result" aria-live="polite">
          <div><dt>Assessable value</dt><dd>{rupees(result.assessable)} /t</dd></div>
          <div><dt>Basic customs duty</dt><dd>{rupees(result.bcd)} /t</dd></div>
          <div><dt>Social welfare surcharge</dt><dd>{rupees(result.sws)} /t</dd></div>
          <div><dt>IGST</dt><dd>{rupees(result.igst)} /t</dd></div>
          <div><dt>Port &amp; clearing</dt><dd>{rupees(result.portCharges)} /t</dd></div>
          <div className="total"><dt>Landed cost</dt><dd data-testid="landed-per-kg">{rupees(result.landedPerKg)} /kg</dd></div>
          <div><dt>Net of IGST credit</dt><dd data-testid="net-per-kg">{rupees(result.netOfIgstPerKg)} /kg</dd></div>
        </dl>
      ) : (
        <p className="muted" data-testid="landed-cost-invalid">Correct the highlighted inputs to see the landed cost.</p>
      )}
      {notified && (
        <p className="muted calculator-note" data-testid="customs-notification-used">
          {rateUsed === notified.rate
            ? `Customs rate: ${rupees(notified.rate)}/US$, CBIC notification No. ${notified.number}, in force from ${notified.effectiveFrom}.`
            : `The customs rate entered is not the one in force: ${rupees(notified.rate)}/US$, CBIC notification No. ${notified.number}, from ${notified.effectiveFrom}.`}
        </p>
      )}
      {gap && domestic && (
        <section className="calculator-gap" data-testid="domestic-gap" aria-labelledby="gap-heading">
          <h2 id="gap-heading">Against the domestic price</h2>
          <dl className="calculator-result">
            <div><dt>{domestic.label}</dt><dd data-testid="domestic-per-kg">{rupees(gap.domesticPerKg)} /kg</dd></div>
            <div><dt>This import, landed incl. IGST</dt><dd>{rupees(gap.landedPerKg)} /kg</dd></div>
            <div className="total"><dt>{gap.gapPerKg >= 0 ? 'Import dearer by' : 'Import cheaper by'}</dt><dd data-testid="gap-per-kg">{rupees(Math.abs(gap.gapPerKg))} /kg ({formatNumber(Math.abs(gap.gapPct))}%)</dd></div>
          </dl>
          <p className="muted calculator-note">
            Both prices carry their tax (IGST on the import, GST on the domestic price), and a registered buyer gets both back, so the gap is in the price. Of the landed cost,{' '}
            {rupees(gap.dutiesPerKg)}/kg is customs duty (BCD and its surcharge) and {rupees(gap.portPerKg)}/kg port and clearing, which domestic material does not pay. Indian producers price just under
            this import parity to keep their buyers, so a domestic price a few per cent under the landed cost is the usual state; a wider gap means imports or domestic prices are about to move. The domestic price
            is the latest weekly revision, set on the CIF of the Friday before.
          </p>
        </section>
      )}
    </form>
  );
}
