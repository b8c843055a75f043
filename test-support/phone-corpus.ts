/**
 * Phone numbers written the way many countries write them, with the country's region code (for a
 * library that needs a default region), and digits that are not phone numbers. Used by the scrubber's tests and
 * bench/redaction.mjs.
 */
// Phone numbers as docs/traffic.md promises them: `+` and 7-15 digits, or digit groups joined by
// spaces, dots, dashes or parentheses, 7-15 digits in all; written the way each country does.
export const PHONES: Array<[region: string, phone: string]> = [
  ['US', '(415) 555-0132'],
  ['US', '415-555-0132'],
  ['US', '415.555.0132'],
  ['US', '+1 415 555 0132'],
  ['US', '1-800-555-0199'],
  ['US', '555-0123'],
  ['US', '+14155550132'],
  ['GB', '+44 20 7946 0958'],
  ['GB', '020 7946 0958'],
  ['GB', '07700 900123'],
  ['GB', '+44 (0)20 7946 0958'],
  ['FR', '06 12 34 56 78'],
  ['FR', '+33 6 12 34 56 78'],
  ['FR', '01.23.45.67.89'],
  ['DE', '0049 30 12345678'],
  ['DE', '+49 30 12345678'],
  ['DE', '030 12345678'],
  ['DE', '(030) 1234-5678'],
  ['IN', '98765 43210'],
  ['IN', '+91 98765 43210'],
  ['JP', '03-1234-5678'],
  ['JP', '+81 3-1234-5678'],
  ['JP', '090-1234-5678'],
  ['BR', '(11) 91234-5678'],
  ['BR', '+55 11 91234 5678'],
  ['CN', '138 0013 8000'],
  ['CN', '+86 138 0013 8000'],
  ['AU', '(02) 9876 5432'],
  ['AU', '0412 345 678'],
  ['AU', '+61 412 345 678'],
  ['ES', '612 34 56 78'],
  ['IT', '+39 06 1234 5678'],
  ['NL', '06-12345678'],
  ['RU', '+7 (495) 123-45-67'],
  ['RU', '8 (495) 123-45-67'],
  ['MX', '55 1234 5678'],
  ['ZA', '+27 21 123 4567'],
  ['KR', '010-1234-5678'],
  ['NG', '0803 123 4567']
]

// Digits that are not phone numbers: they must survive.
export const NOT_PHONES = [
  'on 2024-05-01',
  'on 01.05.2024',
  'at 2026-11-02 09:00:00',
  'at 2026-11-02T09:00:00Z',
  'on 05/01/2024',
  'version 1.2.3',
  'build 10.0.19041.1234',
  'v2.14.0',
  'Python 3.11.4',
  'ticket NIM-12345',
  'order 1234567890',
  'uuid 550e8400-e29b-41d4-a716-446655440000',
  'ISBN 978-3-16-148410-0',
  'price $1,299.99',
  'price €1.234,56',
  'total 1.234.567 €',
  'epoch 1717171717',
  'at 12:30:45',
  'host 10.20.30.40',
  'host 192.168.1.10',
  'listening on 127.0.0.1:8000',
  'from 1990-2020',
  'in 2019 2020 2021',
  'pi is 3.14159265',
  'at 48.8566, 2.3522',
  'grew 12.5% to 150 GB'
]
