import { render } from 'preact';
import '@/components/theme.css';
import { localizePage } from '@/lib/i18n';
import { App } from './App';

localizePage(document, 'extName');
render(<App />, document.getElementById('app')!);
