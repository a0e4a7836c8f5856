/**
 * The baseline's engine: AutoETS of augurs (Grafana's time-series library, Rust compiled to
 * WebAssembly; `@bsull/augurs`), a port of the ETS model search of R's forecast package and
 * statsforecast. The search is "AZN": additive errors, no / additive / damped additive trend,
 * no season (prices here have no seasonal cycle worth a model), the best by AICc. Loading the
 * WebAssembly module reads its file once per process (about 270 KB, a few ms), on first use.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AutoETS, initSync } from '@bsull/augurs/ets';
import type { EtsEngine, EtsPrediction } from '../../lib/forecasts/baseline.ts';

/** The model search: additive error, trend chosen (none, additive, damped), no season. */
export const ETS_SPEC = 'AZN';

let loaded = false;

function load(): void {
  if (loaded) return;
  // The package exports its JavaScript only; its WebAssembly sits beside it. Resolved from
  // this module (in the built server too: the package stays in node_modules).
  const entry = createRequire(import.meta.url).resolve('@bsull/augurs/ets');
  initSync({ module: readFileSync(join(dirname(entry), 'ets_bg.wasm')) });
  loaded = true;
}

export const augursEts: EtsEngine = {
  fit(values: readonly number[], steps: number, level: number): EtsPrediction {
    load();
    const model = new AutoETS(1, ETS_SPEC);
    try {
      model.fit(Float64Array.from(values));
      const forecast = model.predict(steps, level);
      if (!forecast.intervals) throw new Error('AutoETS gave no prediction interval');
      return { point: forecast.point, lower: forecast.intervals.lower, upper: forecast.intervals.upper };
    } finally {
      model.free();
    }
  },
};
