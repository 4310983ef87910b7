import { render } from 'preact';
import '@/components/theme.css';
import { localizePage } from '@/lib/i18n';
import { Welcome } from './Welcome';

localizePage(document, 'welcomeTitle');
render(<Welcome />, document.getElementById('app')!);
