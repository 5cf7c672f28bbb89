package org.portals3j.checks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** The build's poms, read as XML: the root's, then every module's down the modules lists, each with its parent. */
final class Poms {
    private Poms() {
    }

    /**
     * One pom of the build.
     *
     * @param folder the module's folder relative to the root ("" for the root)
     * @param xml the pom's project element
     * @param parent the pom of the build it inherits from, or null (the root, the BOM)
     */
    record Pom(String folder, Element xml, @Nullable Pom parent) {
        String artifactId() {
            return text(xml, "artifactId");
        }

        /** The packaging, "jar" where the pom names none. */
        String packaging() {
            String packaging = text(xml, "packaging");
            return packaging.isEmpty() ? "jar" : packaging;
        }

        /** The property as this module sees it: its own value, else its parent's; null where no pom sets it. */
        @Nullable String property(String name) {
            @Nullable Element properties = child(xml, "properties");
            @Nullable Element own = properties == null ? null : child(properties, name);
            if (own != null) {
                return String.valueOf(own.getTextContent()).trim();
            }
            return parent == null ? null : parent.property(name);
        }

        /** The classifiers of the artifacts a plugin of this pom's own profile {@code id} attaches. */
        List<String> classifiersOfProfile(String id) {
            List<String> found = new ArrayList<>();
            @Nullable Element profiles = child(xml, "profiles");
            for (Element profile : profiles == null ? List.<Element>of() : children(profiles, "profile")) {
                if (text(profile, "id").equals(id)) {
                    NodeList nodes = profile.getElementsByTagName("classifier");
                    for (int i = 0; i < nodes.getLength(); i++) {
                        @Nullable Node classifier = nodes.item(i);
                        if (classifier != null) {
                            found.add(String.valueOf(classifier.getTextContent()).trim());
                        }
                    }
                }
            }
            return found;
        }
    }

    /** The root pom and every module's, parents before their modules. */
    static List<Pom> all() throws Exception {
        List<Pom> poms = new ArrayList<>();
        Map<Path, Pom> byFolder = new HashMap<>();
        collect(Build.root(), byFolder, poms);
        return poms;
    }

    /** The root pom. */
    static Pom root() throws Exception {
        return all().get(0);
    }

    private static void collect(Path dir, Map<Path, Pom> byFolder, List<Pom> poms) throws Exception {
        Element xml = read(dir.resolve("pom.xml"));
        @Nullable Pom parent = null;
        @Nullable Element parentElement = child(xml, "parent");
        if (parentElement != null) {
            String relative = text(parentElement, "relativePath");
            Path parentPom = dir.resolve(relative.isEmpty() ? "../pom.xml" : relative).normalize();
            Path parentDir = relative.endsWith(".xml") || relative.isEmpty() ? parentPom.getParent() : parentPom;
            parent = parentDir == null ? null : byFolder.get(parentDir);
            if (parent == null) {
                throw new AssertionError(dir + "'s parent " + parentDir + " is not a pom of the build read before it");
            }
        }
        Pom pom = new Pom(Build.root().relativize(dir).toString(), xml, parent);
        byFolder.put(dir, pom);
        poms.add(pom);
        @Nullable Element modules = child(xml, "modules");
        for (Element module : modules == null ? List.<Element>of() : children(modules, "module")) {
            collect(dir.resolve(String.valueOf(module.getTextContent()).trim()).normalize(), byFolder, poms);
        }
    }

    static Element read(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    }

    static Element must(Element parent, String name) {
        @Nullable Element e = child(parent, name);
        if (e == null) {
            throw new AssertionError("<" + parent.getTagName() + "> has no <" + name + ">");
        }
        return e;
    }

    static @Nullable Element child(Element parent, String name) {
        List<Element> all = children(parent, name);
        return all.isEmpty() ? null : all.get(0);
    }

    static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                found.add(e);
            }
        }
        return found;
    }

    /** The trimmed text of the first child element {@code name}, "" where there is none. */
    static String text(Element parent, String name) {
        @Nullable Element e = child(parent, name);
        return e == null ? "" : String.valueOf(e.getTextContent()).trim();
    }
}
