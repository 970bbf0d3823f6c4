package io.distlock.benchmarks;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

/** Parses the reports' SVG and HTML with the JDK's XML parser: what it accepts is well-formed. */
final class XmlDocuments {

    private XmlDocuments() {
    }

    /**
     * @param text an XML document (an SVG, or HTML written as well-formed XML)
     * @return its parsed DOM
     * @throws AssertionError if it is not well-formed, with the parser's reason
     */
    static Document parse(String text) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            return factory.newDocumentBuilder().parse(new InputSource(new StringReader(text)));
        } catch (SAXException | IOException | ParserConfigurationException e) {
            throw new AssertionError("not well-formed XML: " + e.getMessage() + "\n" + text, e);
        }
    }

    /**
     * @param document  a parsed document
     * @param localName an element name without namespace, e.g. {@code "rect"}
     * @return the elements of that name, in document order
     */
    static List<Element> elements(Document document, String localName) {
        NodeList nodes = document.getElementsByTagNameNS("*", localName);
        List<Element> elements = new ArrayList<>(nodes.getLength());
        for (int i = 0; i < nodes.getLength(); i++) {
            elements.add((Element) nodes.item(i));
        }
        return elements;
    }
}
