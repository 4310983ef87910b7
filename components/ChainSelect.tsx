import { CHAINS } from '@/lib/format/chains';

const chainOptions = Object.entries(CHAINS).map(([id, c]) => ({ id: Number(id), name: c.name }));

/**
 * A labelled select of the known chains. With `anyLabel`, an empty first option means "any chain" (value undefined).
 */
export function ChainSelect(props: {
  label: string;
  value: number | undefined;
  onChange: (chainId: number | undefined) => void;
  anyLabel?: string;
}) {
  return (
    <label>
      {props.label}
      <select
        value={props.value ?? ''}
        onChange={(e) => {
          const v = (e.target as HTMLSelectElement).value;
          props.onChange(v === '' ? undefined : Number(v));
        }}
      >
        {props.anyLabel !== undefined && <option value="">{props.anyLabel}</option>}
        {chainOptions.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
}
