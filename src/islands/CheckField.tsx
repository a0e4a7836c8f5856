/** A tick box with its label beside it (the site's `.check` row): one shape for every checkbox on the delivery forms. */
import type { ReactNode } from 'react';

export interface CheckFieldProps {
  readonly name: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly disabled?: boolean | undefined;
  readonly children: ReactNode;
}

export function CheckField({ name, checked, onChange, disabled, children }: CheckFieldProps) {
  return (
    <label className="check">
      <input type="checkbox" name={name} checked={checked} onChange={(e) => onChange(e.target.checked)} disabled={disabled} />
      <span>{children}</span>
    </label>
  );
}
