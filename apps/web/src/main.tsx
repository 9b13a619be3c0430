import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { takeToken } from './api/token.js';
import { App } from './App.js';
import './styles.css';

const token = takeToken();
const root = createRoot(document.getElementById('root')!);
root.render(
  <StrictMode>
    {token ? (
      <App token={token} />
    ) : (
      <p className="no-token">This dashboard needs its token. Open it from the URL that mcpscope printed when it started.</p>
    )}
  </StrictMode>,
);
