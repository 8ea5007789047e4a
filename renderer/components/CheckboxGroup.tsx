/** A tick for each value of a set (a key's permissions, an endpoint's events), in the order given. */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  labels,
  checked,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  labels: Record<T, string>;
  checked: ReadonlySet<T>;
  onChange(next: Set<T>): void;
}) {
  return (
    <fieldset className="checkboxes">
      <legend className="field__label">{legend}</legend>
      {options.map((value) => (
        <label key={value} className="checkbox">
          <input
            type="checkbox"
            name={value}
            checked={checked.has(value)}
            onChange={(e) => {
              const next = new Set(checked);
              if (e.target.checked) next.add(value);
              else next.delete(value);
              onChange(next);
            }}
          />
          {labels[value]}
        </label>
      ))}
    </fieldset>
  );
}
