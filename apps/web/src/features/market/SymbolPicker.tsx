import { useEffect, useState } from 'react';
import { Autocomplete, Select, Stack, Text, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import type { SymbolInfoBody } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { useSymbols } from './symbols.api';

export interface SymbolPickerProps {
  accountId: string | null | undefined;
  value: string;
  onChange: (symbol: string) => void;
  /** Offered while the symbol list cannot be loaded, when any symbol may be typed. */
  suggestions?: readonly string[];
  w?: number;
}

/** Symbol or description, case-insensitive: "bitcoin" finds BTCUSD. */
export function matchesSymbol(s: Pick<SymbolInfoBody, 'symbol' | 'description'>, search: string): boolean {
  const q = search.trim().toLowerCase();
  return !q || s.symbol.toLowerCase().includes(q) || s.description.toLowerCase().includes(q);
}

const isSymbol = (symbol: string, search: string) => symbol.toLowerCase() === search.trim().toLowerCase();

/**
 * The account's symbols as a searchable select showing each description. Only when the list could not
 * be loaded may a symbol be typed freely (committed on Enter, on picking a suggestion or on leaving).
 */
export function SymbolPicker({ accountId, value, onChange, suggestions = [], w }: SymbolPickerProps) {
  const symbols = useSymbols(accountId);
  const list = symbols.data;
  const [search, setSearch] = useState(value);

  // A symbol the account does not trade (another broker's name) gives way to the list's own spelling,
  // else to its first symbol.
  useEffect(() => {
    if (!list?.length || list.some((s) => s.symbol === value)) return;
    const same = list.find((s) => s.symbol.toUpperCase() === value.toUpperCase());
    onChange((same ?? list[0]!).symbol);
  }, [list, value, onChange]);

  if (symbols.isError)
    return (
      <FreeSymbolInput
        value={value}
        onChange={onChange}
        suggestions={suggestions}
        w={w}
        reason={errorMessage(symbols.error, 'the broker did not answer')}
      />
    );

  const byName = new Map((list ?? []).map((s) => [s.symbol, s]));
  // The exact symbol first, so that Enter (which takes the first option) picks what was typed.
  const filter: OptionsFilter = ({ options, search: q }) =>
    (options as ComboboxItem[])
      .filter((o) => {
        const s = byName.get(o.value);
        return s ? matchesSymbol(s, q) : o.value.toLowerCase().includes(q.toLowerCase());
      })
      .sort((a, b) => Number(isSymbol(b.value, q)) - Number(isSymbol(a.value, q)));
  // Typing a whole symbol (or enough to leave one) and pressing Enter picks it, even before the
  // options have rendered.
  const typedPick = (): string | null => {
    const matches = (list ?? []).filter((s) => matchesSymbol(s, search));
    return (
      (matches.find((s) => isSymbol(s.symbol, search)) ?? (matches.length === 1 ? matches[0] : null))
        ?.symbol ?? null
    );
  };
  return (
    <Select
      label="Symbol"
      description={byName.get(value)?.description ?? (symbols.isLoading ? 'Loading symbols…' : undefined)}
      data={list ? list.map((s) => s.symbol) : value ? [value] : []}
      value={value || null}
      onChange={(v) => v && onChange(v)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        const pick = typedPick();
        if (!pick) return;
        // Inside a form, Enter picks the symbol and must not submit the form too.
        e.preventDefault();
        onChange(pick);
      }}
      selectFirstOptionOnChange
      filter={filter}
      renderOption={({ option }) => (
        <Stack gap={0}>
          <Text size="sm">{option.value}</Text>
          <Text size="xs" c="dimmed">
            {byName.get(option.value)?.description}
          </Text>
        </Stack>
      )}
      nothingFoundMessage="No such symbol on this account"
      allowDeselect={false}
      w={w}
    />
  );
}

function FreeSymbolInput({
  value,
  onChange,
  suggestions,
  reason,
  w,
}: Required<Omit<SymbolPickerProps, 'accountId' | 'w'>> & { reason: string; w?: number }) {
  const [draft, setDraft] = useState(value);
  const commit = (typed: string) => {
    const s = typed.trim().toUpperCase();
    setDraft(s);
    if (s) onChange(s);
  };
  return (
    <Autocomplete
      label="Symbol"
      description={`Symbol list unavailable (${reason}): type a symbol, then press Enter`}
      data={[...suggestions]}
      value={draft}
      onChange={(v) => setDraft(v.toUpperCase())}
      onOptionSubmit={commit}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        // Enter picks the symbol; inside a form it must not submit the form too.
        e.preventDefault();
        commit(e.currentTarget.value);
      }}
      onBlur={(e) => commit(e.currentTarget.value)}
      w={w}
    />
  );
}
