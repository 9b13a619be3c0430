/** The chosen theme (ui-store) as the document's `data-theme`, which styles.css reads. */
import { useEffect } from 'react';
import { useUi } from '../store/ui-store.js';

export function useTheme(): void {
  const theme = useUi((s) => s.theme);
  useEffect(() => void (document.documentElement.dataset.theme = theme), [theme]);
}
