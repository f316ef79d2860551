import { useState } from "react";
import { ArrowRight } from "./icons";
import { AppLink } from "../layout/app-link";
import { CountryTileCard, ServiceTileCard } from "./tiles";
import { COUNTRY_TILES, SERVICE_TILES } from "./supported-data";
import { buttonClasses } from "../ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";

/** The landing page's "Supported Services and Countries" (web/routes/homepage.tsx loads it after the first paint). */
export default function SupportedSection() {
  const [tab, setTab] = useState("services");
  return (
    <section aria-labelledby="supported-title" className="below-fold bg-slate-50 py-16 dark:bg-slate-900/50">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex flex-col items-center gap-4 text-center">
          <h2 id="supported-title" className="text-3xl font-bold tracking-tight">
            Supported Services and Countries
          </h2>
          <p className="max-w-xl text-slate-600 dark:text-slate-400">Verification codes for the apps people use most, on numbers from around the world.</p>
        </div>
        <Tabs id="supported" value={tab} onValueChange={setTab} className="mt-8 flex flex-col items-center gap-8">
          <TabsList label="Show services or countries">
            <TabsTrigger value="services">Services</TabsTrigger>
            <TabsTrigger value="countries">Countries</TabsTrigger>
          </TabsList>
          <TabsContent value="services" className="w-full rounded-xl">
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
              {SERVICE_TILES.map((tile) => (
                <ServiceTileCard key={tile.name} tile={tile} />
              ))}
            </ul>
          </TabsContent>
          <TabsContent value="countries" className="w-full rounded-xl">
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
              {COUNTRY_TILES.map((tile) => (
                <CountryTileCard key={tile.name} tile={tile} />
              ))}
            </ul>
          </TabsContent>
        </Tabs>
        <div className="mt-8 flex justify-center">
          <AppLink to="/prices/1" className={buttonClasses("outline", "lg")}>
            See all services <ArrowRight className="h-4 w-4" aria-hidden />
          </AppLink>
        </div>
      </div>
    </section>
  );
}
