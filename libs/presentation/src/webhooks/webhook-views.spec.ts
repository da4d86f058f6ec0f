import { maskedWebhookUrl } from './webhook-views';

describe('maskedWebhookUrl (an endpoint as a role below admin sees it)', () => {
  it.each([
    ['https://billing.example.com/hooks/svc', 'https://billing.example.com/hooks/svc'],
    ['https://h.example.com/x?token=s3cr3t', 'https://h.example.com/x?token=***'],
    ['https://h.example.com/x?token=s3cr3t&region=eu', 'https://h.example.com/x?token=***&region=***'],
    ['https://h.example.com/x?token=a=b', 'https://h.example.com/x?token=***'],
    ['https://h.example.com/x?s3cr3t', 'https://h.example.com/x?***'],
    ['https://h.example.com/x?a=1&&b', 'https://h.example.com/x?a=***&&***'],
    ['https://h.example.com/x?', 'https://h.example.com/x?'],
    ['https://h.example.com:8443/x?k=v#frag', 'https://h.example.com:8443/x?k=***#***'],
    ['https://h.example.com/x#', 'https://h.example.com/x#'],
    ['https://u:p@h.example.com/x?k=v', 'https://***@h.example.com/x?k=***'],
    ['https://us@r:p@ss@h.example.com/', 'https://***@h.example.com/'],
    ['https://h.example.com/a@b?k=v', 'https://h.example.com/a@b?k=***'],
    ['https://[2606:4700:4700::1111]/x?k=v', 'https://[2606:4700:4700::1111]/x?k=***'],
  ])('%s -> %s', (url, shown) => {
    expect(maskedWebhookUrl(url)).toBe(shown);
  });
});
