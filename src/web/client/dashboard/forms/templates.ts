import type { FormUi, Logic, OwnerField } from '../../../../shared/form.js';

/**
 * The forms a first-time owner starts from (issue 25 item 7): five real forms, each a POST
 * /forms body but its environment. Labels in plain words, e-mail and phone marked personal data,
 * logic where a question only matters after another's answer. Pure data: the forms list offers
 * them, and a test publishes each.
 */

export interface Template {
  /** Also the id of its card in the list. */
  key: string;
  /** The card's name, the button's accessible name. */
  name: string;
  about: string;
  title: string;
  fields: OwnerField[];
  logic?: Logic;
  // the API takes further ui members (an index signature FormUi, an interface, lacks)
  ui?: FormUi & { [member: string]: unknown };
  retention?: { days: number };
}

const option = (value: string, label: string) => ({ value, label });

export const TEMPLATES: readonly Template[] = [
  {
    key: 'contact',
    name: 'Contact form',
    about: 'Name, e-mail, a topic and a message.',
    title: 'Contact us',
    ui: {
      layout: 'classic',
      description: 'Ask us anything: we answer within two working days.',
      submitLabel: 'Send message',
      successMessage: 'Thank you: your message has reached us, and we will answer by e-mail.',
    },
    fields: [
      { id: 'name', type: 'text', label: 'Your name', required: true, maxLength: 100 },
      { id: 'email', type: 'email', label: 'E-mail address', required: true, pii: true },
      {
        id: 'topic',
        type: 'select',
        label: 'What is it about?',
        options: [
          option('question', 'A question'),
          option('support', 'Help with an order'),
          option('feedback', 'Feedback'),
          option('other', 'Something else'),
        ],
      },
      { id: 'message', type: 'textarea', label: 'Message', required: true, maxLength: 5000 },
    ],
  },
  {
    key: 'event',
    name: 'Event registration',
    about: 'Who is coming, how, with how many guests, and any dietary needs.',
    title: 'Event registration',
    ui: {
      layout: 'one-by-one',
      progress: 'steps',
      description: 'Save your seat: it takes a minute.',
      submitLabel: 'Register',
      successMessage: 'You are registered. We will send the details to your e-mail address a week before.',
    },
    fields: [
      { id: 'full_name', type: 'text', label: 'Full name', required: true, maxLength: 100 },
      { id: 'email', type: 'email', label: 'E-mail address', required: true, pii: true },
      { id: 'phone', type: 'phone', label: 'Phone number', help: 'Only to reach you on the day.', pii: true },
      {
        id: 'attendance',
        type: 'select',
        label: 'How will you attend?',
        required: true,
        options: [option('in-person', 'In person'), option('online', 'Online')],
      },
      {
        id: 'guests',
        type: 'number',
        label: 'How many guests will you bring?',
        help: 'Up to 3.',
        min: 0,
        max: 3,
        integer: true,
      },
      { id: 'dietary', type: 'checkbox', label: 'I have dietary requirements' },
      {
        id: 'dietary_details',
        type: 'textarea',
        label: 'Tell us about your dietary requirements',
        maxLength: 1000,
      },
    ],
    logic: {
      rules: [
        { when: { field: 'attendance', op: 'equals', value: 'in-person' }, show: ['guests', 'dietary'] },
        { when: { field: 'dietary', op: 'equals', value: true }, show: ['dietary_details'] },
      ],
    },
  },
  {
    key: 'feedback',
    name: 'Feedback',
    about: 'A rating, what worked, and what to do better when it did not.',
    title: 'How did we do?',
    ui: {
      layout: 'one-by-one',
      progress: 'bar',
      submitLabel: 'Send feedback',
      successMessage: 'Thank you: every answer is read.',
    },
    fields: [
      {
        id: 'satisfaction',
        type: 'rating',
        label: 'How satisfied are you overall?',
        required: true,
        min: 1,
        max: 5,
      },
      { id: 'liked', type: 'textarea', label: 'What did you like?', maxLength: 2000 },
      { id: 'improve', type: 'textarea', label: 'What should we do better?', maxLength: 2000 },
      {
        id: 'recommend',
        type: 'select',
        label: 'Would you recommend us to a friend?',
        options: [option('yes', 'Yes'), option('maybe', 'Maybe'), option('no', 'No')],
      },
      {
        id: 'email',
        type: 'email',
        label: 'Your e-mail address, if you would like an answer',
        pii: true,
      },
    ],
    logic: { rules: [{ when: { field: 'satisfaction', op: 'lte', value: 3 }, show: ['improve'] }] },
  },
  {
    key: 'job',
    name: 'Job application',
    about: 'Contact details, the role, a CV link, a start date and a short motivation.',
    title: 'Job application',
    ui: {
      layout: 'classic',
      description: 'Tell us about yourself. We answer every application within two weeks.',
      submitLabel: 'Send application',
      successMessage: 'Thank you for applying. We will write to you within two weeks.',
    },
    // applications are kept half a year, as many privacy laws expect, then deleted by themselves
    retention: { days: 180 },
    fields: [
      { id: 'full_name', type: 'text', label: 'Full name', required: true, maxLength: 100 },
      { id: 'email', type: 'email', label: 'E-mail address', required: true, pii: true },
      { id: 'phone', type: 'phone', label: 'Phone number', pii: true },
      {
        id: 'role',
        type: 'select',
        label: 'Which role are you applying for?',
        required: true,
        options: [
          option('engineering', 'Engineering'),
          option('design', 'Design'),
          option('sales', 'Sales'),
          option('support', 'Customer support'),
          option('other', 'Another role'),
        ],
      },
      { id: 'role_other', type: 'text', label: 'Which role?', maxLength: 100 },
      {
        id: 'cv',
        type: 'url',
        label: 'Link to your CV or portfolio',
        help: 'A web address, such as your LinkedIn profile or a shared document.',
        required: true,
      },
      { id: 'start', type: 'date', label: 'When could you start?' },
      { id: 'motivation', type: 'textarea', label: 'Why would you like to join us?', maxLength: 3000 },
      {
        id: 'consent',
        type: 'checkbox',
        label: 'I agree that my application is kept for six months',
        required: true,
      },
    ],
    logic: { rules: [{ when: { field: 'role', op: 'equals', value: 'other' }, show: ['role_other'] }] },
  },
  {
    key: 'newsletter',
    name: 'Newsletter sign-up',
    about: 'An e-mail address, a first name, the topics, and consent.',
    title: 'Newsletter sign-up',
    ui: {
      layout: 'classic',
      description: 'One e-mail a month, no more. Unsubscribe with one click.',
      submitLabel: 'Subscribe',
      successMessage: 'You are subscribed. The next issue will be in your inbox.',
    },
    fields: [
      { id: 'email', type: 'email', label: 'E-mail address', required: true, pii: true },
      { id: 'first_name', type: 'text', label: 'First name', maxLength: 60 },
      {
        id: 'topics',
        type: 'select',
        label: 'What would you like to hear about?',
        multiple: true,
        options: [
          option('news', 'Product news'),
          option('guides', 'Tips and guides'),
          option('events', 'Events'),
        ],
      },
      {
        id: 'consent',
        type: 'checkbox',
        label: 'Send me the newsletter (I can unsubscribe at any time)',
        required: true,
      },
    ],
  },
];

/** A template as the body of POST /forms, in `environment`. */
export const bodyOfTemplate = ({ title, fields, logic, ui, retention }: Template, environment: string) => ({
  title,
  environment,
  fields,
  ...(logic ? { logic } : {}),
  ...(ui ? { ui } : {}),
  ...(retention ? { retention } : {}),
});
