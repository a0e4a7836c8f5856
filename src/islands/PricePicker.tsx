/**
 * The daily update's price picker on /alerts (part of the DeliverySettings island): a search
 * box that opens a list of prices grouped by family, after the WAI-ARIA APG combobox pattern
 * with a multi-select listbox popup (downshift's useCombobox: arrow keys, Home/End, Enter,
 * Escape, aria-activedescendant). Enter or a click adds a price or takes it out again (the list
 * stays open with the search as typed); the chosen ones are listed above it, each with its own
 * Remove button.
 */
import { useCombobox } from 'downshift';
import { useMemo, useState } from 'react';
import { groupChoices, matchChoices } from '../lib/delivery/pickerSearch.ts';
import type { InstrumentChoice } from '../lib/delivery/view.ts';

export interface PricePickerProps {
  readonly choices: readonly InstrumentChoice[];
  readonly selected: readonly string[];
  readonly onChange: (ids: string[]) => void;
  /** At most this many may be chosen. */
  readonly max: number;
  readonly label: string;
}

export default function PricePicker({ choices, selected, onChange, max, label }: PricePickerProps) {
  const [query, setQuery] = useState('');
  const byId = useMemo(() => new Map(choices.map((c) => [c.id, c])), [choices]);
  const chosen = new Set(selected);
  const full = selected.length >= max;
  // The listbox shows the matches grouped; downshift's items are in that same order.
  const groups = useMemo(() => groupChoices(matchChoices(choices, query)), [choices, query]);
  const items = useMemo(() => groups.flatMap((g) => g.items), [groups]);

  const toggle = (choice: InstrumentChoice) => {
    if (chosen.has(choice.id)) onChange(selected.filter((id) => id !== choice.id));
    else if (!full) onChange([...selected, choice.id]);
  };

  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps, getToggleButtonProps } = useCombobox<InstrumentChoice>({
    items,
    itemToString: (item) => item?.label ?? '',
    itemToKey: (item) => item?.id,
    // The typed text is downshift's own state (a value fed back through props lags a render and
    // loses keystrokes); the filter follows it.
    onInputValueChange: ({ inputValue }) => setQuery(inputValue ?? ''),
    // Nothing is "selected" in the combobox itself: the chosen prices are the list above it.
    selectedItem: null,
    // The first match is active as soon as the list shows: type, then Enter.
    defaultHighlightedIndex: 0,
    isItemDisabled: (item) => full && !chosen.has(item.id),
  });

  /**
   * Enter and a click toggle the active option here, instead of downshift's single selection:
   * the list stays open with the search as typed, for the next price.
   */
  const choose = (event: { preventDefault(): void; nativeEvent: Event }, item: InstrumentChoice | undefined) => {
    if (!item) return;
    event.preventDefault();
    (event.nativeEvent as Event & { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
    toggle(item);
  };

  return (
    <div className="picker" data-testid="price-picker">
      <label className="picker-label" {...getLabelProps()}>
        {label}
      </label>
      <p className="form-note" id="picker-count" aria-live="polite">
        {selected.length === 0 ? 'No price chosen yet.' : `${selected.length} chosen${full ? ` (the most an update carries)` : ` of at most ${max}`}.`}
      </p>
      {selected.length > 0 && (
        <ul className="picker-chosen" data-testid="chosen-prices" aria-label="Prices in the update">
          {selected.map((id) => {
            const choice = byId.get(id);
            return (
              <li key={id}>
                <span>{choice?.label ?? id}</span>
                <button type="button" className="picker-remove" aria-label={`Remove ${choice?.label ?? id}`} onClick={() => onChange(selected.filter((s) => s !== id))}>
                  ✕
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="picker-box">
        <input
          className="picker-input"
          placeholder="Search, e.g. pp raffia mumbai"
          {...getInputProps({
            'aria-describedby': 'picker-count',
            onKeyDown: (event) => {
              if (event.key === 'Enter' && isOpen && highlightedIndex >= 0) choose(event, items[highlightedIndex]);
            },
          })}
        />
        <button type="button" className="picker-toggle" aria-label={isOpen ? 'Close the list of prices' : 'Open the list of prices'} {...getToggleButtonProps()}>
          {isOpen ? '▴' : '▾'}
        </button>
      </div>
      <ul className="picker-list" {...getMenuProps({ 'aria-multiselectable': true })} hidden={!isOpen}>
        {isOpen && items.length === 0 && (
          <li role="presentation" className="picker-empty">
            No price matches “{query}”.
          </li>
        )}
        {isOpen &&
          groups.map((group, g) => (
            <li key={group.group} role="presentation">
              <div className="picker-group" id={`picker-group-${g}`} role="presentation">
                {group.group}
              </div>
              <ul role="group" aria-labelledby={`picker-group-${g}`}>
                {group.items.map((item) => {
                  const index = items.indexOf(item);
                  const on = chosen.has(item.id);
                  return (
                    <li
                      key={item.id}
                      className={`picker-option${highlightedIndex === index ? ' is-active' : ''}${on ? ' is-chosen' : ''}`}
                      {...getItemProps({ item, index, 'aria-selected': on, onClick: (event) => choose(event, item) })}
                    >
                      <span className="picker-mark" aria-hidden="true">
                        {on ? '✓' : ''}
                      </span>
                      <span>{item.label}</span>
                      <span className="picker-unit">{item.unit}</span>
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
      </ul>
    </div>
  );
}
