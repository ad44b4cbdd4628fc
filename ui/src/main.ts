// Entry point of the web UI: defining <opl-app> upgrades the element in index.html.
import './components/app/index.ts';
