// Real UN/LOCODE locations the tracking simulation draws journeys from: seaports of loading in
// Asia, seaports of discharge in Europe, the Americas and the Gulf, and inland places for pre-
// and on-carriage.
export interface Place {
  locode: string;
  name: string;
  country: string;
}

const place = (locode: string, name: string): Place => ({ locode, name, country: locode.slice(0, 2) });

export const LOADING_PORTS: readonly Place[] = [
  place('CNSHA', 'Shanghai'),
  place('CNNGB', 'Ningbo'),
  place('CNYTN', 'Yantian'),
  place('CNTAO', 'Qingdao'),
  place('SGSIN', 'Singapore'),
  place('KRPUS', 'Busan'),
  place('HKHKG', 'Hong Kong'),
  place('TWKHH', 'Kaohsiung'),
  place('VNSGN', 'Ho Chi Minh City'),
  place('MYPKG', 'Port Klang'),
  place('INNSA', 'Nhava Sheva'),
  place('JPTYO', 'Tokyo'),
];

export const DISCHARGE_PORTS: readonly Place[] = [
  place('NLRTM', 'Rotterdam'),
  place('BEANR', 'Antwerp'),
  place('DEHAM', 'Hamburg'),
  place('DEBRV', 'Bremerhaven'),
  place('GBFXT', 'Felixstowe'),
  place('ESVLC', 'Valencia'),
  place('ITGOA', 'Genoa'),
  place('FRLEH', 'Le Havre'),
  place('USLAX', 'Los Angeles'),
  place('USLGB', 'Long Beach'),
  place('USNYC', 'New York'),
  place('USSAV', 'Savannah'),
  place('CAVAN', 'Vancouver'),
  place('BRSSZ', 'Santos'),
  place('AEJEA', 'Jebel Ali'),
];

/** Inland places, each with the countries of the seaports it is plausibly reached through. */
export interface InlandPlace extends Place {
  via: readonly string[];
}

const inland = (locode: string, name: string, via: readonly string[]): InlandPlace => ({ ...place(locode, name), via });

export const INLAND_ORIGINS: readonly InlandPlace[] = [
  inland('CNCKG', 'Chongqing', ['CN']),
  inland('CNWUH', 'Wuhan', ['CN']),
  inland('CNCTU', 'Chengdu', ['CN']),
];

export const INLAND_DESTINATIONS: readonly InlandPlace[] = [
  inland('DEDUI', 'Duisburg', ['NL', 'BE', 'DE']),
  inland('CZPRG', 'Prague', ['DE']),
  inland('USCHI', 'Chicago', ['US', 'CA']),
  inland('USDAL', 'Dallas', ['US']),
];
