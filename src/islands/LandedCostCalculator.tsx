/**
 * The landed-cost calculator. Server-rendered as a plain GET form (works without JavaScript:
 * the page computes the result from the query); hydrated, it recomputes on every keystroke
 * and shows each invalid input's message beside it.
 */
import { useMemo, useState } from 'react';
import { LANDED_COST_FIELDS, landedCost, parseLandedCostInput, type LandedCost, type LandedCostField } from '../lib/landedCost.ts';
import { formatRupees as rupees } from '../lib/numbers.ts';

export interface LandedCostCalculatorProps {
  readonly initial: Readonly<Record<LandedCostField, string>>;
  readonly initialResult: LandedCost | null;
  readonly initialErrors: Partial<Record<LandedCostField, string>>;
  /** Kept in the form so a no-JS submit keeps the chosen prefill grade. */
  readonly grade: string;
}

export default function LandedCostCalculator({ initial, initialResult, initialErrors, grade }: LandedCostCalculatorProps) {
  const [values, setValues] = useState<Record<LandedCostField, string>>({ ...initial });
  const [touched, setTouched] = useState(false);
  const parsed = useMemo(() => parseLandedCostInput(values), [values]);
  const result = touched ? (parsed.ok ? landedCost(parsed.value) : null) : initialResult;
  const errors = touched ? (parsed.ok ? {} : parsed.errors) : initialErrors;

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
    </form>
  );
}
