// The order the gateway benchmarks create, in both generations' words.
export const ORDER_CURRENT = {
  CreateOnlineOrder: {
    referenceOrderId: 'bench-1',
    amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
    description: 'bench order',
    customerEmailAddress: 'bench@example.com',
    customerPhoneNumber: '+61400000001',
    items: [{ description: 'Book', quantity: 2, amount: { minorCurrencyUnits: 5000, currency: 'AUD' }, sku: 'BK-1' }],
    billing: { name: 'Jo', emailAddress: 'jo@example.com', phoneNumber: '+61400000002' },
    metadata: { cart: { id: 42 } },
  },
};
export const ORDER_LEGACY = {
  internalOrderId: 'bench-1',
  paymentAmount: { amount: 10_000, currency: 'AUD' },
  description: 'bench order',
  customerEmail: 'bench@example.com',
  phoneNo: '+61400000001',
  items: [{ description: 'Book', quantity: 2, amount: 5000, currency: 'AUD', sku: 'BK-1' }],
  billing: { name: 'Jo', email: 'jo@example.com', phone: '+61400000002' },
  metadata: { cart: { id: 42 } },
};
