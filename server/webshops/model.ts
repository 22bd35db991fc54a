// A webshop as stored (store.ts keeps them): types only, so a module that takes a shop imports no store.
import type { Settings } from '../../embed/shared/settings.js';

export interface Address {
  street: string;
  housenumber: string;
  postalcode: string;
  city: string;
  country: string;
}

export interface ShopLanguage {
  name: string;
  url: string;
  iso: string;
  all: boolean;
  main: boolean;
}

/** The sidebar's dashboard configuration: the `_service_*` globals on a shop's page win over these. */
type SidebarSettings = Partial<Settings>;

export interface Webshop {
  id: number;
  code: string;
  name: string;
  url: string;
  /** The URL's host without `www.` and port, lower case: what fetch_domain.json matches. */
  host: string;
  logo: string;
  address: Address;
  languages: ShopLanguage[];
  hero_color: string;
  hero_image: string;
  reply_access: boolean;
  approved_date: string | null;
  partner_assurances: Record<string, boolean>;
  sidebar: SidebarSettings;
  /**
   * Only signed order data may record consent: unsigned order-data elements show no dialog, unsigned consents are
   * refused, and order_permissions.json ignores unsigned receipts (requiresSignedOrderData).
   */
  require_signed_order_data?: boolean;
  /** Days after the invitation e-mail to send one reminder if its link was not used; 0: none. Absent: the default. */
  reminder_days?: number;
  created: Date;
  updated: Date;
}
