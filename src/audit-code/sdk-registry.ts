/**
 * SDKs whose write calls take a native idempotency key, as data: the source of `sdk_write_without_key`
 * and of better labels, not the gate for what counts as a write (writes.ts finds those by behaviour).
 * `client` says how an instance is recognised: constructed with `new` from one of `modules`, or (Stripe, where a `stripe` instance is
 * usually passed around) a receiver named like `namePattern`. `keyNames` are the option / body fields
 * that carry the key; `methods` the calls that need one.
 */
export interface SdkEntry {
  sdk: string;
  modules: readonly string[];
  namePattern?: RegExp;
  methods: RegExp;
  /** Every call that changes state (default: `methods`): what side_effect_before_interrupt counts as a write. */
  writes?: RegExp;
  keyNames: readonly string[];
  hint: string;
}

export const SDK_REGISTRY: readonly SdkEntry[] = [
  {
    sdk: 'Stripe',
    modules: ['stripe'],
    namePattern: /^stripe$/i,
    // Calls whose repetition adds something (an object, an email, a usage record). State transitions
    // (confirm, capture, finalizeInvoice, pay, cancel …) fail on the second try instead of repeating,
    // and update sets the same fields again, so they are not reported.
    methods:
      /^(create|sendInvoice|createUsageRecord|incrementAuthorization|createBalanceTransaction|createSource|createTaxId|createReversal|createLoginLink)$/,
    writes:
      /^(create\w*|update|del|cancel|capture|confirm|pay|finalizeInvoice|voidInvoice|sendInvoice|markUncollectible|attach|detach|approve|decline|reverse|close|expire|resume|apply|incrementAuthorization)$/,
    keyNames: ['idempotencyKey'],
    hint: 'pass request options { idempotencyKey } with a key persisted per intent',
  },
  {
    sdk: 'Square',
    modules: ['square'],
    methods:
      /^(create|complete|refund|cancel|pay|publish|batch\w*|upsert|charge|createPayment|refundPayment|createOrder|payOrder|createInvoice|publishInvoice)$/,
    keyNames: ['idempotencyKey'],
    hint: 'set idempotencyKey in the request body from a key persisted per intent',
  },
  {
    sdk: 'Adyen',
    modules: ['@adyen/api-library'],
    methods:
      /^(payments|sessions|paymentsDetails|refundCapturedPayment|captureAuthorisedPayment|cancelAuthorisedPayment\w*|reversalAuthorisedPayment\w*|paymentLinks|orders|donations)$/,
    keyNames: ['idempotencyKey'],
    hint: 'pass requestOptions { idempotencyKey } with a key persisted per intent',
  },
  {
    sdk: 'PayPal',
    modules: ['@paypal/paypal-server-sdk'],
    methods:
      /^(createOrder|captureOrder|authorizeOrder|refundCapturedPayment|captureAuthorizedPayment|reauthorizeAuthorizedPayment|createSubscription|createPlan)$/,
    keyNames: ['paypalRequestId', 'PayPal-Request-Id'],
    hint: 'set paypalRequestId from a key persisted per intent',
  },
  {
    // POST /emails and /emails/batch honour an Idempotency-Key for 24 hours; the SDK takes it as an option.
    sdk: 'Resend',
    modules: ['resend'],
    methods: /^send$/,
    keyNames: ['idempotencyKey'],
    hint: 'pass { idempotencyKey } as the second argument of send, from a key persisted per intent',
  },
];

/** AWS SDK v3 commands whose input has an idempotency token member, and its name. */
export const AWS_TOKEN_COMMANDS: Readonly<Record<string, string>> = {
  RunInstancesCommand: 'ClientToken',
  CreateVolumeCommand: 'ClientToken',
  CreateNatGatewayCommand: 'ClientToken',
  CreateLaunchTemplateCommand: 'ClientToken',
  CreateFileSystemCommand: 'CreationToken',
  CreateStackCommand: 'ClientRequestToken',
  UpdateStackCommand: 'ClientRequestToken',
  ExecuteChangeSetCommand: 'ClientRequestToken',
  TransactWriteItemsCommand: 'ClientRequestToken',
  StartQueryExecutionCommand: 'ClientRequestToken',
  CreateSecretCommand: 'ClientRequestToken',
  PutSecretValueCommand: 'ClientRequestToken',
  RunTaskCommand: 'clientToken',
  CreateServiceCommand: 'clientToken',
  StartBuildCommand: 'idempotencyToken',
  CreateCertificateAuthorityCommand: 'IdempotencyToken',
  RequestCertificateCommand: 'IdempotencyToken',
};
