/** The fileview-read job: a view of an array file into a DataFrame through the fileview data source. */
package dev.layout.jobs.fileview;
