interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** One part of the import's shift (days or hours): a whole number; a negative one moves earlier. */
export function ShiftField({ id, label, value, onChange }: Props) {
  return (
    <div className="field field--shift">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        step="1"
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
