import { useId, type ReactNode } from 'react';

interface Props {
  label: string;
  value: string | number;
  /** The chosen option's value, as the <select> gives it (a string). */
  onChange: (value: string) => void;
  required?: boolean;
  /** The field's classes, "field" and any of the screen's own. */
  className?: string;
  /** The <option>s. */
  children: ReactNode;
}

/** A labelled <select>: the label names it for screen readers and a click on it opens it. */
export function SelectField({ label, value, onChange, required, className = 'field', children }: Props) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select id={id} required={required} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}
